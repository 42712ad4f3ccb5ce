import { FORMS } from "@/lib/http/paths";
import { getFormatter, getTranslations } from "next-intl/server";
import type { UserJson } from "@/lib/admin/user-registry";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";
import { DataTable, DataRow, DataCell, DataActions } from "@/app/_components/data-table";
import { rolesOf } from "@/app/_components/company/invite-form";

/** A small button of a table row's actions. */
export const smallButton =
  "rounded-md border border-slate-300 bg-white px-2.5 py-1 text-xs font-semibold text-slate-800 hover:bg-slate-50";
const STATUS_STYLE: Record<UserJson["status"], string> = {
  invited: "bg-amber-50 text-amber-900 ring-amber-200",
  active: "bg-green-50 text-green-900 ring-green-200",
  deactivated: "bg-slate-100 text-slate-700 ring-slate-300",
  locked: "bg-red-50 text-red-800 ring-red-200",
};

/** One action on one person: a small form with the CSRF token, the company (operators) and the person's email. */
function ActionForm({
  action,
  email,
  companyId,
  csrf,
  children,
}: {
  action: string;
  email: string;
  companyId?: string;
  csrf: string;
  children: React.ReactNode;
}) {
  return (
    <form method="post" action={FORMS.company} className="inline-flex flex-wrap items-center gap-1.5">
      <input type="hidden" name={CSRF_FIELD} value={csrf} />
      <input type="hidden" name="action" value={action} />
      <input type="hidden" name="email" value={email} />
      {companyId ? <input type="hidden" name="company_id" value={companyId} /> : null}
      {children}
    </form>
  );
}

/** What may be done to one person: send again or revoke an invitation; change the role, deactivate, activate. */
async function PersonActions({
  person,
  companyKind,
  companyId,
  csrf,
}: {
  person: UserJson;
  companyKind: string;
  companyId?: string;
  csrf: string;
}) {
  const t = await getTranslations("CompanyPeople");
  const act = { companyId, csrf };
  return person.status === "invited" ? (
    <>
      <ActionForm action="resend" email={person.email} {...act}>
        <button type="submit" className={smallButton}>
          {t("resend")}
        </button>
      </ActionForm>{" "}
      <ActionForm action="revoke" email={person.email} {...act}>
        <button type="submit" className={smallButton}>
          {t("revoke")}
        </button>
      </ActionForm>
    </>
  ) : (
    <>
      <ActionForm action="role" email={person.email} {...act}>
        <label className="sr-only" htmlFor={`role-${person.email}`}>
          {t("role")}
        </label>
        <select
          id={`role-${person.email}`}
          name="role"
          defaultValue={person.role}
          className="rounded-md border border-slate-400 bg-white px-2 py-1 text-xs"
        >
          {rolesOf(companyKind).map((role) => (
            <option key={role} value={role}>
              {t(`roles.${role}`)}
            </option>
          ))}
        </select>
        <button type="submit" className={smallButton}>
          {t("changeRole")}
        </button>
      </ActionForm>
      {person.status === "locked" ? (
        <ActionForm action="unlock" email={person.email} {...act}>
          <button type="submit" className={smallButton}>
            {t("unlock")}
          </button>
        </ActionForm>
      ) : null}
      {person.status === "deactivated" ? (
        <ActionForm action="activate" email={person.email} {...act}>
          <button type="submit" className={smallButton}>
            {t("activate")}
          </button>
        </ActionForm>
      ) : (
        <details className="text-xs">
          <summary className="cursor-pointer font-semibold text-red-800">{t("deactivate")}</summary>
          <ActionForm action="deactivate" email={person.email} {...act}>
            <button
              type="submit"
              className="mt-1 rounded-md bg-red-700 px-2.5 py-1 text-xs font-semibold text-white hover:bg-red-800"
            >
              {t("confirmDeactivate", { email: person.email })}
            </button>
          </ActionForm>
        </details>
      )}
    </>
  );
}

/** A company's people with their status and last sign-in, and what may be done to each. */
export async function PeopleTable(props: {
  people: UserJson[];
  companyKind: string;
  self: string;
  csrf: string;
  /** named in every form on the operator's page */
  companyId?: string;
}) {
  const { people, companyKind, self, csrf, companyId } = props;
  const [t, format] = [await getTranslations("CompanyPeople"), await getFormatter()];
  const when = (iso: string) => format.dateTime(new Date(iso), { dateStyle: "medium", timeStyle: "short" });
  if (people.length === 0)
    return <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-600">{t("none")}</p>;
  const act = { companyId, csrf };
  return (
    <div className="rounded-lg border border-slate-200 bg-white">
      <DataTable columns={[t("name"), t("role"), t("status"), t("lastSignIn"), t("actions")]}>
        {people.map((person) => (
          <DataRow key={person.email} data-email={person.email}>
            <DataCell className="break-words sm:min-w-56">
              {person.status === "invited" ? (
                <span className="font-medium text-slate-900">{person.email}</span>
              ) : (
                <>
                  <span className="font-medium text-slate-900">{`${person.given_name} ${person.family_name}`}</span>
                  {person.email === self ? <span className="ml-1 text-slate-600">{t("you")}</span> : null}
                  <span className="block text-slate-600">{person.email}</span>
                </>
              )}
            </DataCell>
            <DataCell label={t("roleLabel")}>{t(`roles.${person.role}` as "roles.user")}</DataCell>
            <DataCell label={t("statusLabel")}>
              <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ${STATUS_STYLE[person.status]}`}>
                {t(`statuses.${person.status}`)}
              </span>
              {person.invitation_expires_at ? (
                <span className="block text-xs text-slate-600">
                  {new Date(person.invitation_expires_at) > new Date()
                    ? t("invitedUntil", { date: when(person.invitation_expires_at) })
                    : t("invitationExpired")}
                </span>
              ) : null}
            </DataCell>
            <DataCell label={t("lastSignInLabel")}>
              {person.last_sign_in_at ? when(person.last_sign_in_at) : t("never")}
            </DataCell>
            <DataActions className="space-y-1.5 max-sm:space-y-0">
              <PersonActions person={person} companyKind={companyKind} {...act} />
            </DataActions>
          </DataRow>
        ))}
      </DataTable>
    </div>
  );
}
