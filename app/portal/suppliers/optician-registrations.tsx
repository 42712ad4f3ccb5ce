/** An optician's side of /portal/suppliers: their registrations (subscriptions, withdraw) and registering at a supplier. */
import { getFormatter, getTranslations } from "next-intl/server";
import type { SupplierListing } from "@/lib/data/catalog-reads";
import type { RegistrationView } from "@/lib/data/registrations";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";
import { SUPPLIERS_PATH } from "@/lib/pages/paths";
import { buttonPrimary, buttonSecondary } from "@/app/_components/ui";
import { Card, ChangeFields, ConfirmForm, ConfirmLink, StatusBadge, type Confirmation } from "./registration-parts";

const isOpen = (registration: RegistrationView) => registration.status === "requested" || registration.status === "active";
const input = "mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-200";

export async function OpticianRegistrations(props: { registrations: RegistrationView[]; directory: SupplierListing[]; search: string; csrf: string; confirm?: Confirmation }) {
  const { registrations, directory, search, csrf, confirm } = props;
  const [t, format] = [await getTranslations("Suppliers"), await getFormatter()];
  const day = (date: Date) => format.dateTime(date, { dateStyle: "medium", timeZone: "UTC" });
  const catalogsOf = new Map(directory.map((supplier) => [supplier.supplierId, supplier.catalogs]));
  const openAt = new Set(registrations.filter(isOpen).map((registration) => registration.supplierId));
  const needle = search.toLocaleLowerCase();
  const found = search ? directory.filter((supplier) => `${supplier.name} ${supplier.supplierId}`.toLocaleLowerCase().includes(needle)) : [];

  return (
    <>
      <section className="space-y-4" aria-labelledby="registrations-heading">
        <h2 id="registrations-heading" className="text-lg font-semibold text-slate-900">{t("yourRegistrations")}</h2>
        {registrations.length === 0 ? <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">{t("noRegistrations")}</p> : null}
        {registrations.map((registration) => {
          const subscribed = new Map(registration.subscriptions.map((s) => [s.catalogId, s.status]));
          return (
            <Card key={registration.id} registration={registration}>
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div>
                  <h3 className="font-semibold text-slate-900">{registration.supplierName} <span className="font-normal text-slate-600">({registration.supplierId})</span></h3>
                  <p className="text-sm text-slate-600">{t("customerNumber")}: <span className="font-mono">{registration.clientId}</span> · {t("since", { date: day(registration.updatedAt) })}</p>
                </div>
                <StatusBadge status={registration.status} />
              </div>
              {isOpen(registration) ? (
                <div className="mt-4 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
                  <form method="post" action="/interaction/suppliers" className="space-y-2">
                    <ChangeFields csrf={csrf} action="subscriptions" registration={registration} />
                    <fieldset>
                      <legend className="text-sm font-medium text-slate-800">{t("subscriptions")}</legend>
                      {(catalogsOf.get(registration.supplierId) ?? []).map((catalog) => (
                        <label key={catalog.catalogId} className="mt-1 flex items-center gap-2 text-sm text-slate-800">
                          <input type="hidden" name="catalog" value={catalog.catalogId} />
                          <input type="checkbox" name="subscribed" value={catalog.catalogId} defaultChecked={subscribed.get(catalog.catalogId) === "Subscribed"} className="h-4 w-4 rounded border-slate-300" />
                          {catalog.name} <code className="font-mono text-xs text-slate-600">{catalog.catalogId}</code>
                        </label>
                      ))}
                    </fieldset>
                    <button type="submit" className={`${buttonSecondary} sm:w-auto`}>{t("saveSubscriptions")}</button>
                  </form>
                  {confirm?.action === "withdraw" && confirm.id === registration.id ? null : <ConfirmLink action="withdraw" registration={registration} label={t("withdraw")} />}
                </div>
              ) : null}
              {confirm?.action === "withdraw" && confirm.id === registration.id && isOpen(registration) ? (
                <ConfirmForm csrf={csrf} action="withdraw" registration={registration} question={t("confirmWithdraw", { supplier: registration.supplierName })} button={t("confirmWithdrawButton")} />
              ) : null}
            </Card>
          );
        })}
      </section>

      <section className="space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="find-heading">
        <h2 id="find-heading" className="text-lg font-semibold text-slate-900">{t("findSupplier")}</h2>
        <form method="get" action={SUPPLIERS_PATH} role="search" className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <div className="flex-1">
            <label htmlFor="supplier-search" className="block text-sm font-medium text-slate-800">{t("searchLabel")}</label>
            <input id="supplier-search" name="q" type="search" defaultValue={search} maxLength={100} className={input} />
          </div>
          <button type="submit" className={`${buttonPrimary} sm:w-auto`}>{t("searchButton")}</button>
        </form>
        {search && found.length === 0 ? <p className="text-sm text-slate-600">{t("noSuppliers", { search })}</p> : null}
        {found.map((supplier) => (
          <div key={supplier.supplierId} data-supplier-id={supplier.supplierId} className="rounded-md border border-slate-200 p-4">
            <h3 className="font-semibold text-slate-900">{supplier.name} <span className="font-normal text-slate-600">({supplier.supplierId})</span></h3>
            {openAt.has(supplier.supplierId) ? (
              <p className="mt-1 text-sm text-slate-600">{t("alreadyRegistered")}</p>
            ) : (
              <form method="post" action="/interaction/suppliers" className="mt-3 space-y-3">
                <input type="hidden" name={CSRF_FIELD} value={csrf} />
                <input type="hidden" name="action" value="request" />
                <input type="hidden" name="supplier_id" value={supplier.supplierId} />
                <div>
                  <label htmlFor={`client-id-${supplier.supplierId}`} className="block text-sm font-medium text-slate-800">{t("customerNumber")}</label>
                  <input id={`client-id-${supplier.supplierId}`} name="client_id" required maxLength={40} aria-describedby={`client-id-hint-${supplier.supplierId}`} className={input} />
                  <p id={`client-id-hint-${supplier.supplierId}`} className="mt-1 text-xs text-slate-600">{t("customerNumberHint")}</p>
                </div>
                <fieldset>
                  <legend className="text-sm font-medium text-slate-800">{t("catalogsToSubscribe")}</legend>
                  {supplier.catalogs.map((catalog) => (
                    <label key={catalog.catalogId} className="mt-1 flex items-center gap-2 text-sm text-slate-800">
                      <input type="checkbox" name="catalog" value={catalog.catalogId} defaultChecked className="h-4 w-4 rounded border-slate-300" />
                      {catalog.name} <code className="font-mono text-xs text-slate-600">{catalog.catalogId}</code>
                    </label>
                  ))}
                </fieldset>
                <button type="submit" className={`${buttonPrimary} sm:w-auto`}>{t("sendRequest")}</button>
              </form>
            )}
          </div>
        ))}
      </section>
    </>
  );
}
