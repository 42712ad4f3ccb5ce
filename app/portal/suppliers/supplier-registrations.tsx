/** A supplier's side of /portal/suppliers: requests to approve (with customer groups) or reject, customers, closed ones. */
import { getFormatter, getTranslations } from "next-intl/server";
import type { RegistrationView } from "@/lib/rights/registrations";
import type { RefusedRegistrationForm } from "@/lib/forms/refused-registration-form";
import { invalidInput, LabelledField } from "@/app/_components/labelled-field";
import { Card, ConfirmForm, ConfirmLink, StatusBadge, type Confirmation } from "./registration-parts";

const input = `block w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-200 ${invalidInput}`;

const names = (registration: RegistrationView) => ({
  optician: registration.opticianName,
  customerNumber: registration.clientId,
});

/** A registration's name, customer number, a line about it, and its status. */
function cardHeader(registration: RegistrationView, line: string, customerNumberLabel: string) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-2">
      <div>
        <h3 className="font-semibold text-slate-900">{registration.opticianName}</h3>
        <p className="text-sm text-slate-600">
          {customerNumberLabel} <span className="font-mono">{registration.clientId}</span> · {line}
        </p>
      </div>
      <StatusBadge status={registration.status} />
    </div>
  );
}

/** A request to approve (with customer groups) or reject, each after a confirmation. */
async function RequestCard({
  registration,
  csrf,
  confirm,
  refused,
}: {
  registration: RegistrationView;
  csrf: string;
  confirm?: Confirmation;
  refused?: RefusedRegistrationForm;
}) {
  const [t, format] = [await getTranslations("Suppliers"), await getFormatter()];
  const day = (date: Date) => format.dateTime(date, { dateStyle: "medium", timeZone: "UTC" });
  const confirming = (action: string) => confirm?.action === action && confirm.id === registration.id;
  // This request's customer groups were refused: the error, and what was typed when it could be carried back.
  const refusedHere =
    refused?.error === "invalid_groups" && refused.registrationId === registration.id ? refused : undefined;
  return (
    <Card registration={registration}>
      {cardHeader(registration, t("requestedOn", { date: day(registration.createdAt) }), t("customerNumberLabel"))}
      {registration.subscriptions.length ? (
        <p className="mt-2 text-sm text-slate-700">
          {t("subscriptionsLabel")} {registration.subscriptions.map((s) => s.catalogId).join(", ")}
        </p>
      ) : null}
      {confirming("approve") ? (
        <ConfirmForm
          csrf={csrf}
          action="approve"
          registration={registration}
          question={t("confirmApprove", names(registration))}
          button={t("confirmApproveButton")}
        >
          <div className="mt-3">
            <LabelledField
              id={`groups-${registration.id}`}
              label={t("groupsLabel")}
              hint={t("groupsHint")}
              error={refusedHere ? t("errors.invalid_groups") : undefined}
            >
              {(aria) => (
                <input
                  id={`groups-${registration.id}`}
                  name="customer_groups"
                  inputMode="numeric"
                  maxLength={1200}
                  defaultValue={refusedHere?.customerGroups}
                  className={input}
                  {...aria}
                />
              )}
            </LabelledField>
          </div>
        </ConfirmForm>
      ) : confirming("reject") ? (
        <ConfirmForm
          csrf={csrf}
          action="reject"
          registration={registration}
          question={t("confirmReject", names(registration))}
          button={t("confirmRejectButton")}
        />
      ) : (
        <div className="mt-4 flex flex-col gap-2 sm:flex-row">
          <ConfirmLink action="approve" registration={registration} label={t("approve")} />
          <ConfirmLink action="reject" registration={registration} label={t("reject")} />
        </div>
      )}
    </Card>
  );
}

export async function SupplierRegistrations({
  registrations,
  csrf,
  confirm,
  refused,
}: {
  registrations: RegistrationView[];
  csrf: string;
  confirm?: Confirmation;
  refused?: RefusedRegistrationForm;
}) {
  const [t, format] = [await getTranslations("Suppliers"), await getFormatter()];
  const day = (date: Date) => format.dateTime(date, { dateStyle: "medium", timeZone: "UTC" });
  const confirming = (action: string, registration: RegistrationView) =>
    confirm?.action === action && confirm.id === registration.id;
  const groups = (registration: RegistrationView) =>
    registration.customerGroups.length ? registration.customerGroups.join(", ") : t("noCustomerGroups");
  const byStatus = (...statuses: RegistrationView["status"][]) =>
    registrations.filter((registration) => statuses.includes(registration.status));
  const heading = "text-lg font-semibold text-slate-900";
  const empty = "rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600";

  return (
    <>
      <section className="space-y-4" aria-labelledby="requests-heading">
        <h2 id="requests-heading" className={heading}>
          {t("requests")}
        </h2>
        {byStatus("requested").length === 0 ? <p className={empty}>{t("noRequests")}</p> : null}
        {byStatus("requested").map((registration) => (
          <RequestCard
            key={registration.id}
            registration={registration}
            csrf={csrf}
            confirm={confirm}
            refused={refused}
          />
        ))}
      </section>

      <section className="space-y-4" aria-labelledby="customers-heading">
        <h2 id="customers-heading" className={heading}>
          {t("customers")}
        </h2>
        {byStatus("active").length === 0 ? <p className={empty}>{t("noCustomers")}</p> : null}
        {byStatus("active").map((registration) => (
          <Card key={registration.id} registration={registration}>
            {cardHeader(registration, t("since", { date: day(registration.updatedAt) }), t("customerNumberLabel"))}
            <p className="mt-2 text-sm text-slate-700">
              {t("customerGroups")} {groups(registration)}
            </p>
            {confirming("end", registration) ? (
              <ConfirmForm
                csrf={csrf}
                action="end"
                registration={registration}
                question={t("confirmEnd", names(registration))}
                button={t("confirmEndButton")}
              />
            ) : (
              <div className="mt-4">
                <ConfirmLink action="end" registration={registration} label={t("end")} />
              </div>
            )}
          </Card>
        ))}
      </section>

      {byStatus("rejected", "withdrawn").length ? (
        <section className="space-y-4" aria-labelledby="closed-heading">
          <h2 id="closed-heading" className={heading}>
            {t("closed")}
          </h2>
          {byStatus("rejected", "withdrawn").map((registration) => (
            <Card key={registration.id} registration={registration}>
              {cardHeader(registration, t("since", { date: day(registration.updatedAt) }), t("customerNumberLabel"))}
            </Card>
          ))}
        </section>
      ) : null}
    </>
  );
}
