import type { AuditDetails } from "@/lib/store/models/audit-details";

/** The kinds of event the audit trail records. */
export const AUDIT_EVENT_TYPES = [
  "sign_in.succeeded",
  "sign_in.failed",
  "consent.granted",
  "consent.revoked",
  "device.approved",
  "device.denied",
  "token.revoked",
  "client.registered",
  "client.updated",
  "client.removed",
  "client.approved",
  "client.rejected",
  "client.secret_added",
  "client.secret_disabled",
  "client.secret_expiry_set",
  "signing_key.rotated",
  "signing_key.retired",
  "company.added",
  "company.updated",
  "company.deactivated",
  "company.activated",
  "company.sso_set",
  "company.sso_removed",
  "company.sso_enabled",
  "company.sso_disabled",
  "company.sso_only_changed",
  "company.sso_tested",
  "company.sso_identity_linked",
  "company.sso_logout",
  "company.domain_added",
  "company.domain_verified",
  "company.domain_removed",
  "user.invited",
  "user.invitation_revoked",
  "user.joined",
  "user.role_changed",
  "user.removed",
  "user.deactivated",
  "user.activated",
  "user.unlocked",
  "user.password_reset",
  "user.password_changed",
  "user.email_change_requested",
  "user.email_changed",
  "user.session_ended",
  "user.sign_in_disowned",
  "user.passkey_added",
  "user.passkey_removed",
  "user.totp_enabled",
  "user.totp_removed",
  "user.recovery_codes_generated",
  "user.second_factor_used",
  "user.second_factor_failed",
  "user.second_factors_reset",
  "catalog.imported",
  "catalog.released",
  "registration.requested",
  "registration.changed",
  "federation.issuer_added",
  "federation.issuer_updated",
  "federation.issuer_removed",
  "federation.subject_linked",
  "federation.token_issued",
  "federation.token_refused",
  "mail.retried",
  "mail.test_queued",
  "webhook.added",
  "webhook.updated",
  "webhook.removed",
  "webhook.secret_rotated",
  "webhook.replayed",
  "webhook.disabled",
] as const;

export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

/** An event to record; `details` are stored as a JSON object, named as lib/store/models/audit-details.ts lists. */
export interface AuditEvent {
  type: AuditEventType;
  userId?: string;
  clientId?: string;
  /** The company the event concerns; without it, a string `details.companyId` is taken. */
  companyId?: string;
  ipAddress?: string;
  details?: AuditDetails;
}

/** An event as the trail holds it; `details` is the JSON text recorded. */
export interface RecordedAuditEvent {
  id: string;
  occurredAt: Date;
  type: string;
  userId: string | null;
  clientId: string | null;
  companyId: string | null;
  /** The management API client whose call recorded the event. */
  byClientId: string | null;
  ipAddress: string | null;
  details: string;
}

/** An event's place in the trail's order, newest first by time, then by id. */
export interface AuditPosition {
  occurredAt: Date;
  id: string;
}

/** What the audit pages and the export filter the trail by; undefined is no filter. */
export interface AuditEventFilter {
  /** A user id, a client that acted (by_client_id) or a client the event concerns (client_id). */
  actor?: string;
  companyId?: string;
  /** An exact type, or a prefix ending in "." ("user.") for a family of types. */
  kind?: string;
  /** From this instant on (inclusive). */
  from?: Date;
  /** Before this instant (exclusive). */
  to?: Date;
}

/**
 * A page of the trail, newest first: `take` events older than `olderThan` (the next page), or the `take` events just
 * newer than `newerThan` (the page before), or the newest `take`. Callers take one more than they show, to know
 * whether more follow.
 */
export interface AuditPageRequest {
  take: number;
  olderThan?: AuditPosition;
  newerThan?: AuditPosition;
}
