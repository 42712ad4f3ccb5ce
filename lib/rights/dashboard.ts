/**
 * The dashboard: what happened over the last seven days and what waits. An operator sees the whole platform; a
 * company's administrator sees the same page for their own company only: its people's sign-ins, the tokens of its own
 * applications and API clients, its catalogs' downloads (suppliers), its registration requests to decide (suppliers)
 * and its people's current sessions. Nothing is read beyond the scope decided here. The figures are sums of the
 * hourly activity (lib/store/activity-store.ts), never a scan of the audit trail.
 */
import "server-only";
import {
  AccessDenied,
  isOperator,
  requireOperator,
  requireUser,
  type Actor,
  type ActingCompany,
  type SignedInUser,
} from "@/lib/rights/actor";
import { isCompanyAdmin } from "@/lib/rights/company-people";
import { listRegistrations } from "@/lib/rights/registrations";
import type { ServiceContext } from "@/lib/service-context";
import type { ActivityKind, HourlyActivity } from "@/lib/store/models/activity";

export const DASHBOARD_DAYS = 7;
const HOUR_MS = 3_600_000;
/** The most registration requests counted for a supplier's dashboard; more show as "at least". */
const REQUESTS_COUNTED = 500;

export interface SignInHour {
  hour: Date;
  succeeded: number;
  failed: number;
  locked: number;
}

export interface DashboardView {
  scope: { kind: "platform" } | { kind: "company"; company: Pick<ActingCompany, "id" | "name" | "kind"> };
  /** the first hour shown; the last is the current one */
  since: Date;
  days: number;
  signIns: SignInHour[];
  /** tokens issued over the period, by grant, the most first */
  tokensByGrant: { grant: string; count: number }[];
  /** catalog downloads over the period by supplier, the most first */
  downloads: { companyId: string; name: string; count: number }[];
  activeSessions: number;
  /** the platform's outbox (operators only) */
  outbox?: { queued: number; failed: number; oldestWaitingSeconds: number | null };
  /** what waits for this dashboard's reader to decide */
  pending: { applications?: number; registrationRequests?: number };
}

/** Every hour of the period, oldest first, with the sign-ins of each (zero where nothing happened). */
function signInHours(rows: HourlyActivity[], since: Date, now: Date): SignInHour[] {
  const hours = new Map<number, SignInHour>();
  for (let at = since.getTime(); at <= now.getTime(); at += HOUR_MS)
    hours.set(at, { hour: new Date(at), succeeded: 0, failed: 0, locked: 0 });
  const field: Partial<Record<ActivityKind, "succeeded" | "failed" | "locked">> = {
    "sign_in.succeeded": "succeeded",
    "sign_in.failed": "failed",
    "sign_in.locked": "locked",
  };
  for (const row of rows) {
    const entry = hours.get(row.hour.getTime());
    const name = field[row.kind];
    if (entry && name) entry[name] += row.count;
  }
  return [...hours.values()];
}

function tokensByGrant(rows: HourlyActivity[]): { grant: string; count: number }[] {
  const sums = new Map<string, number>();
  for (const row of rows) {
    const grant = row.kind.slice("token.".length);
    sums.set(grant, (sums.get(grant) ?? 0) + row.count);
  }
  return [...sums].map(([grant, count]) => ({ grant, count })).sort((a, b) => b.count - a.count);
}

async function downloadsOf(context: ServiceContext, since: Date, companyId?: string) {
  const { activity, companies } = context.stores;
  const rows =
    companyId === undefined
      ? await activity.byCompany({ since, kinds: "catalog.download" })
      : (await activity.hourly({ since, kinds: "catalog.download", companyId })).map((row) => ({
          companyId,
          count: row.count,
        }));
  const sums = new Map<string, number>();
  for (const row of rows) sums.set(row.companyId, (sums.get(row.companyId) ?? 0) + row.count);
  const names = await companies.findStates([...sums.keys()]);
  return [...sums]
    .map(([id, count]) => ({ companyId: id, name: names.get(id)?.name ?? id, count }))
    .sort((a, b) => b.count - a.count);
}

async function platformExtras(context: ServiceContext, now: Date) {
  const counts = await context.stores.outbox.count();
  const oldest = await context.stores.outbox.oldestWaitingSince();
  const states = await context.stores.partners.findReviewStates();
  return {
    outbox: {
      queued: counts.queued,
      failed: counts.failed,
      oldestWaitingSeconds: oldest ? Math.max(0, Math.round((now.getTime() - oldest.getTime()) / 1000)) : null,
    },
    pending: {
      applications: [...states.values()].filter((state) => state.status === "pending" || state.pendingMetadata).length,
    },
  };
}

async function readDashboard(user: SignedInUser, operator: boolean, now: Date): Promise<DashboardView> {
  const { context, company } = user;
  const companyId = operator ? undefined : company.id;
  const since = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - (DASHBOARD_DAYS * 24 - 1) * HOUR_MS);
  const { activity, loginSessions } = context.stores;
  const signIns = await activity.hourly({ since, kinds: "sign_in", companyId });
  const tokens = await activity.hourly({ since, kinds: "token", companyId });
  const view = {
    since,
    days: DASHBOARD_DAYS,
    signIns: signInHours(signIns, since, now),
    tokensByGrant: tokensByGrant(tokens),
    downloads: await downloadsOf(context, since, companyId),
    activeSessions: await loginSessions.countCurrent(now, companyId),
  };
  if (operator) return { scope: { kind: "platform" }, ...view, ...(await platformExtras(context, now)) };
  const requests =
    company.kind === "supplier"
      ? (await listRegistrations(user, { status: "requested", limit: REQUESTS_COUNTED })).length
      : undefined;
  const scope = { kind: "company" as const, company: { id: company.id, name: company.name, kind: company.kind } };
  return { scope, ...view, pending: { registrationRequests: requests } };
}

/** The operator's dashboard: the whole platform (/admin). */
export async function platformDashboard(actor: Actor, now = new Date()): Promise<DashboardView> {
  return readDashboard(requireOperator(actor), true, now);
}

/** A company administrator's dashboard: their own company only (their home). */
export async function companyDashboard(actor: Actor, now = new Date()): Promise<DashboardView> {
  const user = requireUser(actor);
  if (isOperator(user) || !isCompanyAdmin(user)) throw new AccessDenied("forbidden");
  return readDashboard(user, false, now);
}
