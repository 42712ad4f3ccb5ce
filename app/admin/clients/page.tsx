import { PAGES } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import { clientReviewStates, listClients, registrationScopes } from "@/lib/rights/operator-clients";
import { pageCsrfToken } from "@/lib/pages/page-csrf";
import { pageData } from "@/lib/pages/page-data";
import { refusedAdminForm } from "@/lib/pages/shown-once";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { isFormClientKind } from "@/lib/forms/client-registration-form";
import { ClientsTable } from "./clients-table";
import { RegisterSection } from "./register-section";

export const dynamic = "force-dynamic";

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
  return (
    <div className="space-y-8">
      <section>
        <h1 className="text-2xl font-semibold text-brand-800">{t("clients")}</h1>
        {single(query.removed) ? (
          <p
            role="status"
            className="mt-3 rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900"
          >
            {t("removed", { client: single(query.removed)! })}
          </p>
        ) : null}
        <ClientsTable clients={clients} states={states} />
      </section>
      <RegisterSection
        kind={kind}
        refused={refused?.action === "register" ? refused : undefined}
        scopes={scopes}
        csrf={await pageCsrfToken()}
      />
    </div>
  );
}
