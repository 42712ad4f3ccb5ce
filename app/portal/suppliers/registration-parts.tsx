/** Pieces both sides of /portal/suppliers show: the status badge, a card, and the confirmation step of a change. */
import { FORMS, PAGES } from "@/lib/http/paths";
import type { ReactNode } from "react";
import { getTranslations } from "next-intl/server";
import type { RegistrationView } from "@/lib/rights/registrations";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";
import { buttonPrimary, buttonSecondary } from "@/app/_components/ui";

const STATUS_STYLE = {
  requested: "bg-amber-100 text-amber-950",
  active: "bg-green-100 text-green-900",
  rejected: "bg-red-100 text-red-900",
  withdrawn: "bg-slate-200 text-slate-800",
};

export interface Confirmation {
  action: string;
  id: string;
}

export async function StatusBadge({ status }: { status: RegistrationView["status"] }) {
  const t = await getTranslations("Suppliers");
  return (
    <span
      data-status={status}
      className={`whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_STYLE[status]}`}
    >
      {t(`status_${status}`)}
    </span>
  );
}

export function Card({ registration, children }: { registration?: RegistrationView; children: ReactNode }) {
  return (
    <section
      data-registration-id={registration?.id}
      className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
    >
      {children}
    </section>
  );
}

/** The hidden fields every change of a registration sends. */
export function ChangeFields({
  csrf,
  action,
  registration,
}: {
  csrf: string;
  action: string;
  registration: RegistrationView;
}) {
  return (
    <>
      <input type="hidden" name={CSRF_FIELD} value={csrf} />
      <input type="hidden" name="action" value={action} />
      <input type="hidden" name="registration_id" value={registration.id} />
      <input type="hidden" name="version" value={registration.version} />
    </>
  );
}

/** A button that opens the confirmation step of an action (a GET, so nothing changes yet). */
export function ConfirmLink({
  action,
  registration,
  label,
}: {
  action: string;
  registration: RegistrationView;
  label: string;
}) {
  return (
    <form method="get" action={PAGES.suppliers}>
      <button
        type="submit"
        name="confirm"
        value={`${action}:${registration.id}`}
        className={`${buttonSecondary} whitespace-nowrap sm:w-auto`}
      >
        {label}
      </button>
    </form>
  );
}

/** The confirmation step: the question, optional fields, and the buttons to cancel or carry out the action. */
export async function ConfirmForm({
  csrf,
  action,
  registration,
  question,
  button,
  children,
}: {
  csrf: string;
  action: string;
  registration: RegistrationView;
  question: string;
  button: string;
  children?: ReactNode;
}) {
  const t = await getTranslations("Suppliers");
  return (
    <form
      method="post"
      action={FORMS.suppliers}
      data-confirm={action}
      className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-4"
    >
      <ChangeFields csrf={csrf} action={action} registration={registration} />
      <p className="text-sm text-amber-950">{question}</p>
      {children}
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        <a href={PAGES.suppliers} className={buttonSecondary}>
          {t("cancel")}
        </a>
        <button type="submit" className={buttonPrimary}>
          {button}
        </button>
      </div>
    </form>
  );
}
