/**
 * The audit trail, for the platform's administrators only: operators on the audit page, and operators' management
 * clients holding manage.audit.read on /manage/v1/audit-events (its pages and its export). Who signed in, consented,
 * changed clients and companies, published catalogs; never for a company's own client.
 */
import "server-only";
import { findAuditPage, type AuditPageView, type AuditPaging } from "@/lib/admin/audit-page";
import { auditFilter, type AuditFilterInput } from "@/lib/admin/audit-query";
import { requirePlatformAdmin, type Actor } from "@/lib/rights/actor";
import type { AuditExportSlice } from "@/lib/store/audit-store";
import type { AuditPosition, RecordedAuditEvent } from "@/lib/store/models/audit-event";

const SCOPE = "manage.audit.read";

/** The audit page's events; a filter it cannot use is named in the view. */
export async function auditPageFor(actor: Actor, input: AuditFilterInput, paging: AuditPaging): Promise<AuditPageView> {
  const { context } = requirePlatformAdmin(actor, SCOPE);
  return findAuditPage(context, input, paging);
}

/** A page of events for the API, newest first: `take` after `olderThan`. Throws AuditFilterError for a bad filter. */
export async function auditEventsFor(
  actor: Actor,
  input: AuditFilterInput,
  request: { take: number; olderThan?: AuditPosition },
): Promise<RecordedAuditEvent[]> {
  const { context } = requirePlatformAdmin(actor, SCOPE);
  const filter = await auditFilter(context, input);
  return filter ? context.stores.audit.page(filter, request) : [];
}

/** One response of the API's export: at most `take` events after `olderThan`, and where the next one starts. */
export async function auditExportFor(
  actor: Actor,
  input: AuditFilterInput,
  request: { take: number; olderThan?: AuditPosition },
): Promise<AuditExportSlice> {
  const { context } = requirePlatformAdmin(actor, SCOPE);
  const filter = await auditFilter(context, input);
  if (filter) return context.stores.audit.exportSlice(filter, request);
  return { events: (async function* () {})(), next: null };
}
