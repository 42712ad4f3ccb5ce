/** "Try sign-in" on an application's page: the button, and what the last try gave (tokens decoded, userinfo). */
import { FORMS } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";
import type { DecodedJwt, DeveloperTrialResult } from "@/lib/rights/developer-trial";
import { Alert, buttonPrimary } from "@/app/_components/ui";
import { DataCell, DataRow, DataRowHeader, DataTable } from "@/app/_components/data-table";

/** The claims OptiGate's tokens carry, each explained on the page; any other is shown without a meaning. */
const EXPLAINED = new Set([
  ...["alg", "kid", "typ", "iss", "sub", "aud", "exp", "iat", "auth_time", "acr", "amr", "nonce", "sid", "at_hash"],
  ...["sandbox", "client_id", "scope", "jti", "company_id", "role", "cnf", "name", "given_name", "family_name"],
  ...["locale", "company", "email", "email_verified"],
]);
const TIMES = new Set(["exp", "iat", "auth_time"]);

const shown = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

async function ClaimsTable({ title, jwt, id }: { title: string; jwt: DecodedJwt; id: string }) {
  const t = await getTranslations("DeveloperTrial");
  const rows = [...Object.entries(jwt.header), ...Object.entries(jwt.claims)];
  return (
    <section aria-labelledby={id} className="space-y-2">
      <h3 id={id} className="font-semibold text-slate-900">
        {title}
      </h3>
      <div className="rounded-md border border-slate-200">
        <DataTable columns={[t("claim"), t("value"), t("meaning")]}>
          {rows.map(([name, value], index) => (
            <DataRow key={`${index}-${name}`} data-claim={name}>
              <DataRowHeader className="font-mono text-slate-900">{name}</DataRowHeader>
              <DataCell
                label={t("valueLabel")}
                className="font-mono text-slate-800 [overflow-wrap:anywhere] sm:max-w-xs"
              >
                {shown(value)}
                {TIMES.has(name) && typeof value === "number" ? (
                  <span className="block font-sans text-xs text-slate-600">{new Date(value * 1000).toISOString()}</span>
                ) : null}
              </DataCell>
              <DataCell label={t("meaningLabel")} className="text-slate-700">
                {EXPLAINED.has(name) ? t(`claims.${name}` as "claims.iss") : ""}
              </DataCell>
            </DataRow>
          ))}
        </DataTable>
      </div>
    </section>
  );
}

async function TrialOutcome({ result }: { result: DeveloperTrialResult }) {
  const t = await getTranslations("DeveloperTrial");
  if (!result.ok)
    return (
      <Alert>
        {t("failed", { error: result.error })}
        {result.description ? ` ${result.description}` : ""}
      </Alert>
    );
  return (
    <div className="space-y-5" data-trial-result="ok">
      <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">
        {t("succeeded")}
      </p>
      {result.idToken ? <ClaimsTable title={t("idToken")} jwt={result.idToken} id="trial-id-token" /> : null}
      <ClaimsTable title={t("accessToken")} jwt={result.accessToken} id="trial-access-token" />
      <section aria-labelledby="trial-userinfo" className="space-y-2">
        <h3 id="trial-userinfo" className="font-semibold text-slate-900">
          {t("userinfo")}
        </h3>
        <p className="text-sm text-slate-600">{t("userinfoText")}</p>
        <pre className="overflow-x-auto rounded-md bg-slate-900 p-3 text-sm text-slate-100" data-userinfo>
          {JSON.stringify(result.userinfo, null, 2)}
        </pre>
      </section>
    </div>
  );
}

export async function TrialSection({
  clientId,
  sandbox,
  csrf,
  refusal,
  result,
}: {
  clientId: string;
  /** the application waits for approval: the try is its sandbox */
  sandbox: boolean;
  csrf: string;
  /** why the last try could not start (DeveloperTrialError's code, or form_expired) */
  refusal?: string;
  result?: DeveloperTrialResult;
}) {
  const t = await getTranslations("DeveloperTrial");
  const known = ["form_expired", "not_found", "rejected", "no_sandbox", "no_code_flow"];
  return (
    <section id="try" aria-labelledby="try-title" className="space-y-4 rounded-lg border border-slate-200 bg-white p-5">
      <h2 id="try-title" className="text-lg font-semibold text-slate-900">
        {t("title")}
      </h2>
      <p className="text-sm text-slate-700">{t("intro")}</p>
      {sandbox ? <p className="text-sm text-amber-900">{t("sandbox")}</p> : null}
      {refusal && known.includes(refusal) ? <Alert>{t(`refused.${refusal}` as "refused.not_found")}</Alert> : null}
      <form method="post" action={FORMS.developerTrial}>
        <input type="hidden" name={CSRF_FIELD} value={csrf} />
        <input type="hidden" name="client_id" value={clientId} />
        <button type="submit" className={`${buttonPrimary} sm:w-auto`}>
          {t("start")}
        </button>
      </form>
      {result?.clientId === clientId ? <TrialOutcome result={result} /> : null}
    </section>
  );
}
