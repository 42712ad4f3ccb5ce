/** Finding a supplier by name or id, and asking it for a registration with a customer number and catalogs. */
import { FORMS, PAGES } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import type { SupplierListing } from "@/lib/rights/catalog-reads";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";
import type { RefusedRegistrationForm } from "@/lib/forms/refused-registration-form";
import { buttonPrimary } from "@/app/_components/ui";
import { invalidInput, LabelledField } from "@/app/_components/labelled-field";

const field =
  "block w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-200";
const input = `${field} ${invalidInput}`;

type RefusedRequest = Extract<RefusedRegistrationForm, { error: "invalid_client_id" }>;

/** The request to one supplier: a customer number and the catalogs to subscribe to (all, unless refused before). */
async function RequestForm({
  supplier,
  search,
  csrf,
  refused,
}: {
  supplier: SupplierListing;
  search: string;
  csrf: string;
  /** This form, refused at its customer number, with what was typed. */
  refused?: RefusedRequest;
}) {
  const t = await getTranslations("Suppliers");
  return (
    <form method="post" action={FORMS.suppliers} className="mt-3 space-y-3">
      <input type="hidden" name={CSRF_FIELD} value={csrf} />
      <input type="hidden" name="action" value="request" />
      <input type="hidden" name="supplier_id" value={supplier.supplierId} />
      <input type="hidden" name="q" value={search} />
      <LabelledField
        id={`client-id-${supplier.supplierId}`}
        label={t("customerNumber")}
        hint={t("customerNumberHint")}
        error={refused ? t("errors.invalid_client_id") : undefined}
      >
        {(aria) => (
          <input
            id={`client-id-${supplier.supplierId}`}
            name="client_id"
            required
            maxLength={40}
            defaultValue={refused?.clientId}
            className={input}
            {...aria}
          />
        )}
      </LabelledField>
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">{t("catalogsToSubscribe")}</legend>
        {supplier.catalogs.map((catalog) => (
          <label key={catalog.catalogId} className="mt-1 flex items-center gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              name="catalog"
              value={catalog.catalogId}
              defaultChecked={refused?.catalogs ? refused.catalogs.includes(catalog.catalogId) : true}
              className="h-4 w-4 rounded border-slate-300"
            />
            {catalog.name} <code className="font-mono text-xs text-slate-600">{catalog.catalogId}</code>
          </label>
        ))}
      </fieldset>
      <button type="submit" className={`${buttonPrimary} sm:w-auto`}>
        {t("sendRequest")}
      </button>
    </form>
  );
}

export async function SupplierSearch({
  directory,
  search,
  openAt,
  csrf,
  refused,
}: {
  directory: SupplierListing[];
  search: string;
  openAt: ReadonlySet<string>;
  csrf: string;
  /** A request refused at its customer number, with what was typed. */
  refused?: RefusedRequest;
}) {
  const t = await getTranslations("Suppliers");
  const needle = search.toLocaleLowerCase();
  const found = search
    ? directory.filter((supplier) => `${supplier.name} ${supplier.supplierId}`.toLocaleLowerCase().includes(needle))
    : [];
  return (
    <section
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
      aria-labelledby="find-heading"
    >
      <h2 id="find-heading" className="text-lg font-semibold text-slate-900">
        {t("findSupplier")}
      </h2>
      <form
        method="get"
        action={PAGES.suppliers}
        role="search"
        className="flex flex-col gap-2 sm:flex-row sm:items-end"
      >
        <div className="flex-1">
          <label htmlFor="supplier-search" className="block text-sm font-medium text-slate-800">
            {t("searchLabel")}
          </label>
          <input
            id="supplier-search"
            name="q"
            type="search"
            defaultValue={search}
            maxLength={100}
            className={`mt-1 ${field}`}
          />
        </div>
        <button type="submit" className={`${buttonPrimary} sm:w-auto`}>
          {t("searchButton")}
        </button>
      </form>
      {search && found.length === 0 ? <p className="text-sm text-slate-600">{t("noSuppliers", { search })}</p> : null}
      {found.map((supplier) => (
        <div
          key={supplier.supplierId}
          data-supplier-id={supplier.supplierId}
          className="rounded-md border border-slate-200 p-4"
        >
          <h3 className="font-semibold text-slate-900">
            {supplier.name} <span className="font-normal text-slate-600">({supplier.supplierId})</span>
          </h3>
          {openAt.has(supplier.supplierId) ? (
            <p className="mt-1 text-sm text-slate-600">{t("alreadyRegistered")}</p>
          ) : (
            <RequestForm
              supplier={supplier}
              search={search}
              csrf={csrf}
              refused={refused?.supplierId === supplier.supplierId ? refused : undefined}
            />
          )}
        </div>
      ))}
    </section>
  );
}
