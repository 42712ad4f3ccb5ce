import { PAGES } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { clientReviewStates, listClients, registrationScopes } from "@/lib/rights/operator-clients";
import { pageCsrfToken } from "@/lib/pages/page-csrf";
import { pageData } from "@/lib/pages/page-data";
import { refusedAdminForm } from "@/lib/pages/shown-once";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { isFormClientKind } from "@/lib/forms/client-registration-form";
import { ClientsTable } from "./clients-table";
import { RegisterSection } from "./register-section";

export const dynamic = "force-dynamic";

function Done({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="mt-3 rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">
      {children}
    </p>
  );
}

export default async function AdminClientsPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const [clients, scopes, states] = await pageData(
    PAGES.adminClients,
    async (actor) => [await listClients(actor), registrationScopes(actor), await clientReviewStates(actor)] as const,
  );
  const t = await getTranslations("Admin");
  const refused = await refusedAdminForm();
  const draftKind = refused?.action === "register" ? refused.draft?.kind : undefined;
  const queryKind = single(query.kind);
  const kind = isFormClientKind(draftKind) ? draftKind : isFormClientKind(queryKind) ? queryKind : undefined;
  const csrf = await pageCsrfToken();
  // A decision taken in the list comes back here; said only of a client the list has.
  const reviewedClient = clients.find((client) => client.id === single(query.client));
  const reviewedAction = (["approve", "reject"] as const).find((action) => action === single(query.reviewed));
  const reviewed = reviewedClient && reviewedAction ? { action: reviewedAction, client: reviewedClient.id } : undefined;
  return (
    <div className="space-y-8">
      <section>
        <h1 className="text-2xl font-semibold text-brand-800">{t("clients")}</h1>
        {single(query.removed) ? <Done>{t("removed", { client: single(query.removed)! })}</Done> : null}
        {reviewed ? <Done>{t(`review.reviewedClient.${reviewed.action}`, { client: reviewed.client })}</Done> : null}
        <ClientsTable clients={clients} states={states} csrf={csrf} />
      </section>
      <RegisterSection
        kind={kind}
        refused={refused?.action === "register" ? refused : undefined}
        scopes={scopes}
        csrf={csrf}
      />
    </div>
  );
}
