/**
 * The audit trail as the operator's audit page and the management API read it: filters by actor (a person's email or
 * user id, or a client id), company, kind (an event type, or a family such as "user.") and time, checked the same way
 * for both; and positions in the trail's order (newest first by time, then id), the keyset that the page's "older"
 * and "newer" links and the API's cursors carry.
 */
import { OptiGateError } from "@/lib/errors/optigate-error";
import { parseInstant } from "@/lib/http/calendar-instant";
import { AUDIT_EVENT_TYPES } from "@/lib/store/models/audit-event";
import type { AuditEventFilter, AuditPosition, RecordedAuditEvent } from "@/lib/store/models/audit-event";
import type { ServiceContext } from "@/lib/service-context";

/** The filters as typed on the page or given as query parameters; empty is no filter. */
export interface AuditFilterInput {
  actor?: string;
  company?: string;
  kind?: string;
  from?: string;
  to?: string;
}

export type AuditFilterField = keyof AuditFilterInput;

/** A filter that is not one: says which, and why in English (the API's problem detail). */
export class AuditFilterError extends OptiGateError<"invalid_filter"> {
  readonly code = "invalid_filter";
  constructor(
    readonly field: AuditFilterField,
    message: string,
  ) {
    super(message);
  }
}

const MAX_ACTOR_LENGTH = 200;
const COMPANY_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** An exact type, or a prefix ending in "." that some type has. */
const isKind = (kind: string) =>
  kind.endsWith(".")
    ? AUDIT_EVENT_TYPES.some((type) => type.startsWith(kind))
    : (AUDIT_EVENT_TYPES as readonly string[]).includes(kind);

/**
 * An instant: an RFC 3339 date-time, or a day (YYYY-MM-DD, UTC), which `from` takes from its start and `to` up to its
 * end; a day or time that does not exist, or one outside the years 1…9999, is refused (lib/http/calendar-instant.ts).
 */
function instantOf(field: "from" | "to", value: string): Date {
  const instant = parseInstant(value, field === "from" ? "start" : "next-start");
  if (!instant)
    throw new AuditFilterError(
      field,
      `${field} must be a day (2026-05-31) or an RFC 3339 date-time, within the years 1 to 9999.`,
    );
  return instant;
}

const given = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);

/** The filter the input describes, with the actor as typed (an email is looked up by auditFilter). */
function checkAuditFilter(input: AuditFilterInput): AuditEventFilter {
  const [actor, companyId, kind, from, to] = [input.actor, input.company, input.kind, input.from, input.to].map(given);
  if (actor !== undefined && (actor.length > MAX_ACTOR_LENGTH || /[\u0000-\u001f\u007f]/.test(actor)))
    throw new AuditFilterError("actor", `actor must be a user id, email or client id of at most ${MAX_ACTOR_LENGTH}.`);
  if (companyId !== undefined && !COMPANY_ID.test(companyId))
    throw new AuditFilterError("company", "The company must be a company id (letters, digits, . _ -; at most 64).");
  if (kind !== undefined && !isKind(kind))
    throw new AuditFilterError("kind", 'kind must be an event type, or the start of some ending in "." ("user.").');
  const filter: AuditEventFilter = {
    actor,
    companyId,
    kind,
    from: from === undefined ? undefined : instantOf("from", from),
    to: to === undefined ? undefined : instantOf("to", to),
  };
  if (filter.from && filter.to && filter.from >= filter.to) throw new AuditFilterError("to", "to must be after from.");
  return filter;
}

/** The filter, with an actor given as an email looked up; null when it names no one (nothing can match). */
export async function auditFilter(
  { stores }: Pick<ServiceContext, "stores">,
  input: AuditFilterInput,
): Promise<AuditEventFilter | null> {
  const filter = checkAuditFilter(input);
  if (!filter.actor?.includes("@")) return filter;
  const userId = await stores.users.findIdByEmail(filter.actor.toLowerCase());
  return userId ? { ...filter, actor: userId } : null;
}

/** A position as text, for a link or a cursor: the time, "_", the id. */
export const positionText = (position: AuditPosition) => `${position.occurredAt.toISOString()}_${position.id}`;

/** The position a text names, or undefined when it names none. */
export function positionOf(text: string | undefined): AuditPosition | undefined {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)_([\w.:@-]{1,200})$/.exec(text ?? "");
  const occurredAt = match ? new Date(match[1]) : undefined;
  return occurredAt && !Number.isNaN(occurredAt.getTime()) ? { occurredAt, id: match![2] } : undefined;
}

/** An event's details as recorded, or none when they are not a JSON object (they always are; an old row might not be). */
export function detailsOf(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** An event as the management API shows it (snake_case, details as an object). */
export const auditEventJson = (event: RecordedAuditEvent) => ({
  id: event.id,
  occurred_at: event.occurredAt.toISOString(),
  type: event.type,
  user_id: event.userId,
  client_id: event.clientId,
  company_id: event.companyId,
  by_client_id: event.byClientId,
  ip_address: event.ipAddress,
  details: detailsOf(event.details),
});
