/**
 * One of a company's switches on its people page (a second factor for everyone, sign-in notices): what holds now, and
 * the form that turns it the other way, unless an operator's decision locks it for the company's administrators.
 */
import { FORMS } from "@/lib/http/paths";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";
import { buttonSecondary } from "@/app/_components/ui";

export function CompanySwitch({
  section,
  on,
  action,
  field,
  texts,
  locked,
  companyId,
  csrf,
}: {
  /** the section's id, which the form's answer leads back to */
  section: string;
  on: boolean;
  /** the form's action, and the field that says what to switch to */
  action: string;
  field: string;
  texts: { title: string; state: string; button: string; locked?: string };
  locked?: boolean;
  /** the operator's page names the company */
  companyId?: string;
  csrf: string;
}) {
  return (
    <section
      id={section}
      aria-labelledby={`${section}-title`}
      data-switched-on={on}
      className="space-y-2 rounded-lg border border-slate-200 bg-white p-5"
    >
      <h2 id={`${section}-title`} className="text-lg font-semibold text-brand-800">
        {texts.title}
      </h2>
      <p className="text-sm text-slate-700">{texts.state}</p>
      {locked ? (
        <p className="text-sm text-slate-700">{texts.locked}</p>
      ) : (
        <form method="post" action={FORMS.company}>
          <input type="hidden" name={CSRF_FIELD} value={csrf} />
          {companyId ? <input type="hidden" name="company_id" value={companyId} /> : null}
          <input type="hidden" name={field} value={on ? "off" : "on"} />
          <button type="submit" name="action" value={action} className={`${buttonSecondary} sm:w-auto`}>
            {texts.button}
          </button>
        </form>
      )}
    </section>
  );
}
