import { FORMS, PAGES } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import type { ScopeDefinition } from "@/lib/oauth/scopes";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";
import { FORM_CLIENT_KINDS, type FormClientKind } from "@/lib/forms/client-registration-form";
import type { AdminFormOutcome } from "@/lib/forms/admin-form-problem";
import { Alert, buttonPrimary } from "@/app/_components/ui";
import { invalidInput, LabelledField } from "@/app/_components/labelled-field";
import { problemPlaces } from "@/app/admin/_parts/problem-text";
import { RegistrationForm } from "./registration-form";

/** Where a registration form is shown and sent: the operator's client list, or a software vendor's portal page. */
export interface RegistrationTarget {
  page: string;
  action: string;
  /** a software vendor registers: no operator-only fields */
  partner?: boolean;
}

const OPERATOR_TARGET: RegistrationTarget = { page: PAGES.adminClients, action: FORMS.admin };

/** The kinds of client, as links: choosing one shows its form (without script, as a page of its own). */
async function KindChoice({ chosen, page }: { chosen?: FormClientKind; page: string }) {
  const t = await getTranslations("Admin");
  return (
    <nav aria-label={t("clientForm.chooseKind")} className="mt-3">
      <p className="text-sm text-slate-700">{t("clientForm.chooseKind")}</p>
      <ul className="mt-2 grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
        {FORM_CLIENT_KINDS.map((kind) => (
          <li key={kind}>
            <a
              href={`${page}?kind=${kind}#register`}
              aria-current={kind === chosen ? "true" : undefined}
              className={`block h-full rounded-md border p-3 text-sm hover:bg-slate-50 ${
                kind === chosen ? "border-brand-700 bg-brand-50 ring-1 ring-brand-700" : "border-slate-300 bg-white"
              }`}
            >
              <span className="block font-semibold text-brand-800">{t(`kinds.${kind}.name`)}</span>
              <span className="mt-1 block text-slate-700">{t(`kinds.${kind}.text`)}</span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Registering a client: by kind with a form, or as client metadata in JSON (advanced). */
export async function RegisterSection({
  kind,
  refused,
  scopes,
  csrf,
  target = OPERATOR_TARGET,
}: {
  kind?: FormClientKind;
  refused?: AdminFormOutcome;
  scopes: ScopeDefinition[];
  csrf: string;
  target?: RegistrationTarget;
}) {
  const t = await getTranslations("Admin");
  const places = await problemPlaces(refused?.problem);
  const jsonDraft = refused?.draft?.metadata;
  return (
    <section id="register" className="rounded-lg border border-slate-200 bg-white p-5">
      <h2 className="text-lg font-semibold text-slate-900">{t("register")}</h2>
      {places.general ? (
        <div className="mt-3">
          <Alert>{places.general}</Alert>
        </div>
      ) : null}
      {places.general === undefined && refused ? (
        <p role="alert" className="mt-3 text-sm font-medium text-red-800">
          {t("clientForm.checkFields")}
        </p>
      ) : null}
      <KindChoice chosen={kind} page={target.page} />
      {kind ? (
        <RegistrationForm
          kind={kind}
          draft={refused?.draft}
          scopes={scopes}
          csrf={csrf}
          errorAt={places.at}
          target={target}
        />
      ) : null}
      <details open={jsonDraft !== undefined} className="mt-6 border-t border-slate-200 pt-4">
        <summary className="cursor-pointer text-sm font-semibold text-brand-800">{t("clientForm.advanced")}</summary>
        <form method="post" action={target.action} className="mt-3 space-y-3">
          <input type="hidden" name={CSRF_FIELD} value={csrf} />
          <input type="hidden" name="action" value="register" />
          <LabelledField
            id="metadata"
            label={t("metadata")}
            hint={t(target.partner ? "partnerMetadataHint" : "metadataHint")}
            error={places.at("metadata")}
          >
            {(aria) => (
              <textarea
                id="metadata"
                name="metadata"
                rows={10}
                required
                defaultValue={jsonDraft ?? ""}
                placeholder={t("clientForm.jsonExample")}
                className={`block w-full rounded-md border border-slate-400 px-3 py-2 font-mono text-sm text-slate-900 ${invalidInput}`}
                {...aria}
              />
            )}
          </LabelledField>
          <button type="submit" className={`${buttonPrimary} sm:w-auto`}>
            {t("registerJsonButton")}
          </button>
        </form>
      </details>
    </section>
  );
}
