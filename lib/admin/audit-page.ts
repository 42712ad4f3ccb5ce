/**
 * The operator's audit page: a page of the trail as the filters select it, the people named by their email, and the
 * positions of the older and the newer page (links that keep the filters). A filter the page cannot use is named, and
 * nothing is listed, rather than the unfiltered trail shown as if it were filtered.
 */
import {
  auditFilter,
  AuditFilterError,
  positionOf,
  positionText,
  type AuditFilterField,
  type AuditFilterInput,
} from "@/lib/admin/audit-query";
import type { ServiceContext } from "@/lib/service-context";

export const AUDIT_PAGE_SIZE = 50;

interface AuditRow {
  id: string;
  occurredAt: Date;
  type: string;
  /** the person who acted, by email (their id once they are erased) */
  email: string | null;
  clientId: string | null;
  companyId: string | null;
  /** the management API client whose call it was */
  byClientId: string | null;
  details: string;
}

export interface AuditPageView {
  events: AuditRow[];
  /** how long events are kept (AUDIT_RETENTION_DAYS) */
  retentionDays: number;
  /** where the next older page starts, when there is one */
  older: string | null;
  /** where the next newer page starts, when there is one */
  newer: string | null;
  /** the filter that could not be used */
  invalid?: AuditFilterField;
}

/** Where the page starts: after `older` (going back in time), before `newer` (coming back), or at the newest. */
export interface AuditPaging {
  older?: string;
  newer?: string;
}

async function filterOf(context: Pick<ServiceContext, "stores">, input: AuditFilterInput) {
  try {
    return await auditFilter(context, input);
  } catch (error) {
    if (error instanceof AuditFilterError) return error;
    throw error;
  }
}

export async function findAuditPage(
  context: Pick<ServiceContext, "stores" | "config">,
  input: AuditFilterInput,
  paging: AuditPaging,
): Promise<AuditPageView> {
  const nothing = { events: [], older: null, newer: null, retentionDays: context.config.auditRetentionDays };
  const filter = await filterOf(context, input);
  if (filter instanceof AuditFilterError) return { ...nothing, invalid: filter.field };
  if (!filter) return nothing;
  const olderThan = positionOf(paging.older);
  const newerThan = olderThan ? undefined : positionOf(paging.newer);
  const { stores } = context;
  const found = await stores.audit.page(filter, { take: AUDIT_PAGE_SIZE + 1, olderThan, newerThan });
  // No more than a page of newer events: they are on the newest page, shown whole.
  if (newerThan && found.length <= AUDIT_PAGE_SIZE) return findAuditPage(context, input, {});
  // Coming back, the one too many is the newest; the event the link started at is older than them all.
  const events = newerThan ? found.slice(1) : found.slice(0, AUDIT_PAGE_SIZE);
  const olderFollow = newerThan !== undefined || found.length > AUDIT_PAGE_SIZE;
  const newerFollow = newerThan !== undefined || olderThan !== undefined;
  const emails = await stores.users.findEmails([
    ...new Set(events.map((event) => event.userId).filter((id): id is string => id !== null)),
  ]);
  return {
    events: events.map((event) => ({
      id: event.id,
      occurredAt: event.occurredAt,
      type: event.type,
      email: event.userId ? (emails.get(event.userId) ?? event.userId) : null,
      clientId: event.clientId,
      companyId: event.companyId,
      byClientId: event.byClientId,
      details: event.details,
    })),
    retentionDays: context.config.auditRetentionDays,
    older: olderFollow && events.length > 0 ? positionText(events[events.length - 1]) : null,
    newer: newerFollow && events.length > 0 ? positionText(events[0]) : null,
  };
}
