/**
 * The company sign-in section of /portal/company, for the company's administrators: whether sign-in goes to the
 * company's own provider and the switches, the report of the test just made, the provider's settings, and the email
 * domains whose people sign in there. What the last form did, or why it was refused, shows in the part it belongs to.
 */
import { getTranslations } from "next-intl/server";
import type { CompanySsoOutcome } from "@/lib/forms/company-sso-outcome";
import type { CompanySsoView } from "@/lib/rights/company-sso-settings";
import { SsoDomains } from "@/app/_components/company/sso/sso-domains";
import { SsoAlert } from "@/app/_components/company/sso/sso-problem";
import { SsoSettingsForm } from "@/app/_components/company/sso/sso-settings-form";
import { SsoStatus } from "@/app/_components/company/sso/sso-status";
import { SsoTestReport } from "@/app/_components/company/sso/sso-test-report";

/** Refusals of the switches and the test's start (an expired form, no provider) show above everything else. */
const isTopLevel = (outcome?: CompanySsoOutcome) =>
  outcome?.problem && outcome.action !== "settings" && !outcome.action.startsWith("domain-") ? outcome : undefined;

export async function CompanySsoSection({
  view,
  outcome,
  csrf,
}: {
  view: CompanySsoView;
  outcome?: CompanySsoOutcome;
  csrf: string;
}) {
  const t = await getTranslations("CompanySso");
  const done = outcome && !outcome.problem && !outcome.test && outcome.action ? outcome : undefined;
  const settingsRefused = outcome?.problem && outcome.action === "settings" ? outcome : undefined;
  return (
    <section id="company-sso" aria-labelledby="company-sso-title" className="space-y-4">
      <div>
        <h2 id="company-sso-title" className="text-lg font-semibold text-brand-800">
          {t("title")}
        </h2>
        <p className="mt-1 text-sm text-slate-600">{t("intro")}</p>
      </div>
      {done ? (
        <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">
          {t(`done.${done.action}`, { domain: done.domain ?? "" })}
        </p>
      ) : null}
      <SsoAlert outcome={isTopLevel(outcome)} />
      {view.provider ? (
        <SsoStatus
          provider={view.provider}
          hasVerifiedDomain={view.domains.some((domain) => domain.verified)}
          csrf={csrf}
        />
      ) : (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-5 text-sm text-slate-700">
          {t("notSetUp")}
        </p>
      )}
      {outcome?.test ? <SsoTestReport report={outcome.test} /> : null}
      <SsoSettingsForm provider={view.provider} callbackUrl={view.callbackUrl} csrf={csrf} refused={settingsRefused} />
      <SsoDomains domains={view.domains} csrf={csrf} outcome={outcome} />
    </section>
  );
}
