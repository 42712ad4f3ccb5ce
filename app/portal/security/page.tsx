import { PAGES } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import { ownSessions } from "@/lib/rights/own-account";
import { securityView } from "@/lib/rights/second-factors";
import { safeLocalPath } from "@/lib/http/local-path";
import { newRecoveryCodes } from "@/lib/pages/shown-once";
import { SecondFactorSection } from "./second-factor-section";
import { SessionsSection } from "./sessions-section";
import { pageCsrfToken } from "@/lib/pages/page-csrf";
import { pageData } from "@/lib/pages/page-data";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { Alert } from "@/app/_components/ui";

export const dynamic = "force-dynamic";

const ERRORS = ["not_found", "form_expired"] as const;
const FACTOR_DONE = [
  "totp-start",
  "totp-confirm",
  "totp-remove",
  "recovery-renew",
  "passkey-rename",
  "passkey-remove",
  "passkey",
] as const;
const FACTOR_ERRORS = [
  "wrong_code",
  "password_needed",
  "wrong_current_password",
  "throttled",
  "last_factor",
  "already_enrolled",
  "not_enrolled",
  "form_expired",
  "second_factor_needed",
] as const;

/** What the last second-factor form did, or why it was refused, in the page's language. */
async function FactorOutcome({ done, error, minutes }: { done?: string; error?: string; minutes: number }) {
  const t = await getTranslations("SecuritySecondFactor");
  const doneKey = FACTOR_DONE.find((key) => key === done);
  const errorKey = FACTOR_ERRORS.find((key) => key === error);
  if (errorKey) return <Alert>{t(`errors.${errorKey}`, { minutes })}</Alert>;
  return doneKey ? (
    <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">
      {t(`done.${doneKey}`)}
    </p>
  ) : null;
}

export default async function SecurityPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const sessions = await pageData(PAGES.security, ownSessions);
  const factors = await pageData(PAGES.security, securityView);
  const returnUrl = safeLocalPath(single(query.returnUrl));
  const [t, csrf] = [await getTranslations("Security"), await pageCsrfToken()];
  const error = single(query.form) ? undefined : ERRORS.find((code) => code === single(query.error));
  const ended = Number(single(query.ended) ?? -1);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-brand-800">{t("title")}</h1>
      {ended >= 0 ? (
        <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">
          {t("ended", { count: ended })}
        </p>
      ) : null}
      {error ? <Alert>{t(`errors.${error}`)}</Alert> : null}
      <FactorOutcome
        done={single(query.done)}
        error={single(query.form) ? single(query.error) : undefined}
        minutes={Number(single(query.minutes) ?? 15)}
      />
      <SecondFactorSection view={factors} csrf={csrf} returnUrl={returnUrl} shownCodes={await newRecoveryCodes()} />
      <SessionsSection sessions={sessions} csrf={csrf} />
    </div>
  );
}
