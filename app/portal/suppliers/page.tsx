import { PAGES } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import { supplierDirectory } from "@/lib/rights/catalog-reads";
import { registrationOverview } from "@/lib/rights/registrations";
import { pageCsrfToken } from "@/lib/pages/page-csrf";
import { refusedRegistrationForm } from "@/lib/pages/shown-once";
import { pageData } from "@/lib/pages/page-data";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { Alert } from "@/app/_components/ui";
import { OpticianRegistrations } from "./optician-registrations";
import { SupplierRegistrations } from "./supplier-registrations";

export const dynamic = "force-dynamic";

const ERRORS = [
  "form_expired",
  "invalid_client_id",
  "invalid_groups",
  "not_found",
  "forbidden",
  "conflict",
  "not_now",
  "stale",
  "unknown_action",
] as const;
const DONE = ["request", "subscriptions", "withdraw", "approve", "reject", "end"] as const;
const MAX_SEARCH_LENGTH = 100;

export default async function SuppliersPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const search = single(query.q)?.trim().slice(0, MAX_SEARCH_LENGTH) ?? "";
  const { overview, directory } = await pageData(PAGES.suppliers, async (actor) => {
    const overview = await registrationOverview(actor);
    // Opticians choose from the suppliers that publish catalogs: the search results, and their own suppliers' catalogs.
    return { overview, directory: overview.side === "optician" ? await supplierDirectory(actor) : [] };
  });
  const t = await getTranslations("Suppliers");
  const csrf = await pageCsrfToken();
  const refused = await refusedRegistrationForm();
  const error = ERRORS.find((code) => code === single(query.error));
  const done = DONE.find((action) => action === single(query.done));
  const [confirmAction, confirmId] = (single(query.confirm) ?? "").split(":");
  const confirm = confirmId ? { action: confirmAction, id: confirmId } : undefined;

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-brand-800">{t("title")}</h1>
        <p className="mt-3 text-slate-700">{overview.side === "supplier" ? t("introSupplier") : t("introOptician")}</p>
      </div>
      {error ? <Alert>{t(`errors.${error}`)}</Alert> : null}
      {done ? (
        <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">
          {t(`done.${done}`)}
        </p>
      ) : null}
      {overview.side === "supplier" ? (
        <SupplierRegistrations registrations={overview.registrations} csrf={csrf} confirm={confirm} refused={refused} />
      ) : (
        <OpticianRegistrations
          registrations={overview.registrations}
          directory={directory}
          search={search}
          csrf={csrf}
          confirm={confirm}
          refused={refused}
        />
      )}
    </div>
  );
}
