/** One of an optician's registrations: its state, its subscriptions to change, and withdrawing it. */
import { FORMS } from "@/lib/http/paths";
import { getFormatter, getTranslations } from "next-intl/server";
import type { SupplierListing } from "@/lib/rights/catalog-reads";
import type { RegistrationView } from "@/lib/rights/registrations";
import { buttonSecondary } from "@/app/_components/ui";
import { Card, ChangeFields, ConfirmForm, ConfirmLink, StatusBadge, type Confirmation } from "./registration-parts";

export const isOpen = (registration: RegistrationView) =>
  registration.status === "requested" || registration.status === "active";

export async function OpticianRegistrationCard(props: {
  registration: RegistrationView;
  catalogs: SupplierListing["catalogs"];
  csrf: string;
  confirm?: Confirmation;
}) {
  const { registration, catalogs, csrf, confirm } = props;
  const [t, format] = [await getTranslations("Suppliers"), await getFormatter()];
  const day = (date: Date) => format.dateTime(date, { dateStyle: "medium", timeZone: "UTC" });
  const subscribed = new Map(registration.subscriptions.map((s) => [s.catalogId, s.status]));
  return (
    <Card registration={registration}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 className="font-semibold text-slate-900">
            {registration.supplierName} <span className="font-normal text-slate-600">({registration.supplierId})</span>
          </h3>
          <p className="text-sm text-slate-600">
            {t("customerNumberLabel")} <span className="font-mono">{registration.clientId}</span> ·{" "}
            {registration.status === "requested"
              ? t("requestedOn", { date: day(registration.createdAt) })
              : t("since", { date: day(registration.updatedAt) })}
          </p>
        </div>
        <StatusBadge status={registration.status} />
      </div>
      {isOpen(registration) ? (
        <div className="mt-4 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
          <form method="post" action={FORMS.suppliers} className="space-y-2">
            <ChangeFields csrf={csrf} action="subscriptions" registration={registration} />
            <fieldset>
              <legend className="text-sm font-medium text-slate-800">{t("subscriptions")}</legend>
              {catalogs.map((catalog) => (
                <label key={catalog.catalogId} className="mt-1 flex items-center gap-2 text-sm text-slate-800">
                  <input type="hidden" name="catalog" value={catalog.catalogId} />
                  <input
                    type="checkbox"
                    name="subscribed"
                    value={catalog.catalogId}
                    defaultChecked={subscribed.get(catalog.catalogId) === "Subscribed"}
                    className="h-4 w-4 rounded border-slate-300"
                  />
                  {catalog.name} <code className="font-mono text-xs text-slate-600">{catalog.catalogId}</code>
                </label>
              ))}
            </fieldset>
            <button type="submit" className={`${buttonSecondary} sm:w-auto`}>
              {t("saveSubscriptions")}
            </button>
          </form>
          {confirm?.action === "withdraw" && confirm.id === registration.id ? null : (
            <ConfirmLink action="withdraw" registration={registration} label={t("withdraw")} />
          )}
        </div>
      ) : null}
      {confirm?.action === "withdraw" && confirm.id === registration.id && isOpen(registration) ? (
        <ConfirmForm
          csrf={csrf}
          action="withdraw"
          registration={registration}
          question={t("confirmWithdraw", { supplier: registration.supplierName })}
          button={t("confirmWithdrawButton")}
        />
      ) : null}
    </Card>
  );
}
