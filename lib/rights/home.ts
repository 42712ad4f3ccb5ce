/**
 * Each person's home (/portal): what needs doing first for their company's kind, as counts that link to the lists.
 * Every figure comes through the rights function of its list (the catalogs, the registrations, the applications, the
 * second factors), so that the home shows nothing its person could not open. Operators have theirs at /admin.
 */
import "server-only";
import { isOperator, requireUser, type Actor } from "@/lib/rights/actor";
import { isCompanyAdmin } from "@/lib/rights/company-people";
import { isPartnerDeveloper, partnerPortalView } from "@/lib/rights/partner-portal";
import { listApplicationGrants } from "@/lib/rights/portal";
import { registrationOverview } from "@/lib/rights/registrations";
import { securityView } from "@/lib/rights/second-factors";
import { listOwnCatalogs } from "@/lib/rights/supplier-catalogs";
import { DASHBOARD_DAYS } from "@/lib/rights/dashboard";
import type { CatalogSummary } from "@/lib/store/catalog-store";

interface SecurityStatus {
  /** a passkey or an authenticator app is set up */
  secondFactor: boolean;
  /** the company requires one */
  required: boolean;
}

export type RoleTasks =
  | { kind: "supplier"; releasesWaiting: number; requestsToDecide: number; downloads: number }
  | { kind: "optician"; activeSuppliers: number; requestsWaiting: number; applications: number }
  | { kind: "partner"; pending: number; approved: number; rejected: number }
  | { kind: "member"; applications: number };

export interface HomeView {
  operator: boolean;
  /** a company administrator also sees the company's dashboard */
  companyAdmin: boolean;
  companyName: string;
  tasks: RoleTasks;
  security: SecurityStatus;
}

/** Complete revisions newer than the catalog's released one: imported, waiting for the supplier's release. */
function releasesWaiting(catalogs: CatalogSummary[]): number {
  let waiting = 0;
  for (const { revisions } of catalogs) {
    const released = Math.max(0, ...revisions.filter((revision) => revision.released).map((r) => r.number));
    waiting += revisions.filter(
      (revision) => revision.complete && !revision.released && revision.number > released,
    ).length;
  }
  return waiting;
}

async function supplierTasks(actor: Actor): Promise<RoleTasks> {
  const user = requireUser(actor);
  const { registrations } = await registrationOverview(actor);
  const since = new Date(Date.now() - DASHBOARD_DAYS * 24 * 3_600_000);
  const downloads = await user.context.stores.activity.hourly({
    since,
    kinds: "catalog.download",
    companyId: user.company.id,
  });
  return {
    kind: "supplier",
    releasesWaiting: releasesWaiting(await listOwnCatalogs(actor)),
    requestsToDecide: registrations.filter((registration) => registration.status === "requested").length,
    downloads: downloads.reduce((sum, row) => sum + row.count, 0),
  };
}

async function opticianTasks(actor: Actor, locale: string): Promise<RoleTasks> {
  const { registrations } = await registrationOverview(actor);
  return {
    kind: "optician",
    activeSuppliers: registrations.filter((registration) => registration.status === "active").length,
    requestsWaiting: registrations.filter((registration) => registration.status === "requested").length,
    applications: (await listApplicationGrants(actor, locale)).length,
  };
}

async function partnerTasks(actor: Actor): Promise<RoleTasks> {
  const { applications } = await partnerPortalView(actor);
  const count = (status: string) => applications.filter((application) => application.status === status).length;
  return { kind: "partner", pending: count("pending"), approved: count("approved"), rejected: count("rejected") };
}

async function tasksOf(actor: Actor, locale: string): Promise<RoleTasks> {
  const { company } = requireUser(actor);
  if (company.kind === "supplier") return supplierTasks(actor);
  if (company.kind === "eye_care_professional") return opticianTasks(actor, locale);
  if (isPartnerDeveloper(actor)) return partnerTasks(actor);
  return { kind: "member", applications: (await listApplicationGrants(actor, locale)).length };
}

export async function homeFor(actor: Actor, locale: string): Promise<HomeView> {
  const user = requireUser(actor);
  const operator = isOperator(user);
  const security = await securityView(actor);
  return {
    operator,
    companyAdmin: !operator && isCompanyAdmin(user),
    companyName: user.company.name,
    tasks: operator ? { kind: "member", applications: 0 } : await tasksOf(actor, locale),
    security: { secondFactor: security.passkeys.length > 0 || security.totp === "on", required: security.required },
  };
}
