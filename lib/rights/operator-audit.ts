/** The audit trail, for operators only: who signed in, consented, changed clients, published catalogs. */
import "server-only";
import { findAuditEvents as queryAuditEvents, type AuditFilter, type AuditRow } from "@/lib/admin/audit-query";
import { requireOperator, type Actor } from "@/lib/rights/actor";

export type { AuditFilter, AuditRow };

export async function findAuditEvents(actor: Actor, filter: AuditFilter): Promise<AuditRow[]> {
  const { context } = requireOperator(actor);
  return queryAuditEvents(context, filter);
}
