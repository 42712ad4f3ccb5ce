/**
 * Which webhook events an audit event is (none for most: the token endpoint's events map to nothing and cost no
 * query), with the data of each and whose company it is: a company the audit event names, or the company of the
 * user, client or registration it names, which the store looks up in the same transaction. Payloads carry ids only,
 * never a secret, a link or a person's address.
 */
import type { AuditEvent } from "@/lib/store/models/audit-event";
import type { WebhookEventType } from "@/lib/store/models/webhook";

/** Whose event it is. */
export type EventCompany =
  { companyId: string } | { userId: string } | { clientId: string } | { registrationId: string };

export interface MappedWebhookEvent {
  type: WebhookEventType;
  /** the payload's data, without the company ids the lookup adds */
  data: Record<string, unknown>;
  company: EventCompany;
}

/** The companies an event belongs to, and the ids they add to its data (`companyId`, or a registration's two). */
export interface EventCompanies {
  companyIds: string[];
  data: Record<string, string | null>;
}

const MAX_ID_LENGTH = 200;

/** An id from the audit event's details, bounded; undefined when it is not a non-empty string. */
const id = (value: unknown): string | undefined =>
  typeof value === "string" && value.length > 0 ? value.slice(0, MAX_ID_LENGTH) : undefined;

function userCreated(event: AuditEvent, details: Record<string, unknown>): MappedWebhookEvent[] {
  const userId = id(details.subjectUserId) ?? id(event.userId);
  const companyId = id(details.companyId);
  if (!userId || !companyId) return [];
  if (event.type === "company.sso_identity_linked")
    return details.createdUser === true
      ? [{ type: "user.created", data: { userId, method: "sso" }, company: { companyId } }]
      : [];
  const invitationId = id(details.invitationId);
  return [
    { type: "user.created", data: { userId, method: "invitation" }, company: { companyId } },
    ...(invitationId
      ? [{ type: "invitation.accepted" as const, data: { invitationId, userId }, company: { companyId } }]
      : []),
  ];
}

/** A failed sign-in or second factor that locked the account. */
function lockedOut(event: AuditEvent, details: Record<string, unknown>): MappedWebhookEvent[] {
  const userId = id(event.userId);
  if (details.locked !== true || !userId) return [];
  const cause = event.type === "sign_in.failed" ? "password" : "second_factor";
  const lockedUntil = id(details.lockedUntil) ?? null;
  return [{ type: "signin.failed.locked", data: { userId, cause, lockedUntil }, company: { userId } }];
}

function clientPending(event: AuditEvent, details: Record<string, unknown>): MappedWebhookEvent[] {
  const clientId = id(event.clientId);
  const pending = event.type === "client.registered" ? details.status === "pending" : details.pending === true;
  if (!clientId || !pending) return [];
  const owner = id(details.owner);
  return [{ type: "client.pending", data: { clientId }, company: owner ? { companyId: owner } : { clientId } }];
}

function registrationDecided(details: Record<string, unknown>): MappedWebhookEvent[] {
  const registrationId = id(details.registrationId);
  if (!registrationId || details.from !== "requested" || (details.to !== "active" && details.to !== "rejected"))
    return [];
  const decision = details.to === "active" ? "approved" : "rejected";
  return [{ type: "registration.decided", data: { registrationId, decision }, company: { registrationId } }];
}

function ofUser(type: WebhookEventType, userId: string | undefined, companyId?: string): MappedWebhookEvent[] {
  if (!userId) return [];
  return [{ type, data: { userId }, company: companyId ? { companyId } : { userId } }];
}

/** The webhook events of an audit event; empty for every event no webhook is about. */
export function webhookEventsOf(event: AuditEvent): MappedWebhookEvent[] {
  const details = event.details ?? {};
  switch (event.type) {
    case "user.joined":
    case "company.sso_identity_linked":
      return userCreated(event, details);
    case "user.deactivated":
      return ofUser("user.deactivated", id(details.subjectUserId));
    case "user.removed":
      // Gone with the user: the company is named in the event (an invited person who never joined is no user).
      return ofUser("user.erased", id(details.subjectUserId), id(details.companyId));
    case "client.registered":
    case "client.updated":
      return clientPending(event, details);
    case "client.approved": {
      const clientId = id(event.clientId);
      return clientId ? [{ type: "client.approved", data: { clientId }, company: { clientId } }] : [];
    }
    case "consent.revoked": {
      const [userId, clientId] = [id(event.userId), id(event.clientId)];
      return userId && clientId ? [{ type: "consent.revoked", data: { userId, clientId }, company: { userId } }] : [];
    }
    case "catalog.released": {
      const [companyId, catalogId] = [id(details.supplierCompanyId), id(details.catalogId)];
      const revision = typeof details.revision === "number" ? details.revision : null;
      return companyId && catalogId
        ? [{ type: "catalog.released", data: { catalogId, revision }, company: { companyId } }]
        : [];
    }
    case "registration.changed":
      return registrationDecided(details);
    case "sign_in.failed":
    case "user.second_factor_failed":
      return lockedOut(event, details);
    default:
      return [];
  }
}

/** The body of a delivery, as Standard Webhooks describes it: `{type, timestamp, data}`. */
export const webhookPayload = (event: MappedWebhookEvent, companies: EventCompanies, at: Date): string =>
  JSON.stringify({ type: event.type, timestamp: at.toISOString(), data: { ...event.data, ...companies.data } });

/** Whether an endpoint gets the event: the platform's every event, a company's its company's events. */
export const endpointGets = (endpointCompanyId: string | null, companies: EventCompanies): boolean =>
  endpointCompanyId === null || companies.companyIds.includes(endpointCompanyId);

/** The companies of a client: the software vendor that registered it, or the company the operator gave it. */
export const clientCompanies = (client: { ownerCompanyId: string | null; companyId: string | null } | null) =>
  single(client?.ownerCompanyId ?? client?.companyId ?? null);

/** The companies of a registration: the optician's and the supplier's. */
export function registrationCompanies(
  registration: { opticianCompanyId: string; supplierCompanyId: string } | null,
): EventCompanies {
  if (!registration) return { companyIds: [], data: { opticianCompanyId: null, supplierCompanyId: null } };
  const { opticianCompanyId, supplierCompanyId } = registration;
  return { companyIds: [opticianCompanyId, supplierCompanyId], data: { opticianCompanyId, supplierCompanyId } };
}

/** One company, or none (a platform client, a user gone). */
export const single = (companyId: string | null): EventCompanies => ({
  companyIds: companyId ? [companyId] : [],
  data: { companyId },
});
