/** The kinds of event the audit trail records. */
export const AUDIT_EVENT_TYPES = [
  "sign_in.succeeded",
  "sign_in.failed",
  "consent.granted",
  "consent.revoked",
  "token.revoked",
  "client.registered",
  "client.updated",
  "client.removed",
  "client.secret_added",
  "client.secret_disabled",
  "client.secret_expiry_set",
  "signing_key.rotated",
  "company.added",
  "company.updated",
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
] as const;

export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];
