/**
 * Whether sign-in at the company's provider is on, whether it is the only way in, when its settings were last tested,
 * and the buttons that switch it and test it. Requiring SSO asks once more: it shuts the company's passwords off.
 */
import { getFormatter, getTranslations } from "next-intl/server";
import type { CompanySsoJson } from "@/lib/admin/company-sso-registry";
import { buttonPrimary, buttonSecondary } from "@/app/_components/ui";
import { SsoActionButton } from "@/app/_components/company/sso/sso-action-button";

const TONES = {
  good: "bg-green-50 text-green-900 ring-green-200",
  quiet: "bg-slate-100 text-slate-700 ring-slate-300",
  warn: "bg-amber-50 text-amber-900 ring-amber-200",
};

function Pill({ tone, children }: { tone: keyof typeof TONES; children: React.ReactNode }) {
  return <li className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ${TONES[tone]}`}>{children}</li>;
}

export async function SsoStatus({
  provider,
  hasVerifiedDomain,
  csrf,
}: {
  provider: CompanySsoJson;
  hasVerifiedDomain: boolean;
  csrf: string;
}) {
  const [t, format] = [await getTranslations("CompanySso.status"), await getFormatter()];
  const tested =
    provider.tested_at && format.dateTime(new Date(provider.tested_at), { dateStyle: "medium", timeStyle: "short" });
  const act = { csrf, className: `${buttonSecondary} sm:w-auto` };
  return (
    <section
      id="sso-status"
      aria-labelledby="sso-status-title"
      data-sso-enabled={provider.enabled}
      data-sso-only={provider.sso_only}
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-5"
    >
      <h3 id="sso-status-title" className="text-base font-semibold text-brand-800">
        {t("title")}
      </h3>
      <ul className="flex flex-wrap gap-2" aria-label={t("title")}>
        <Pill tone={provider.enabled ? "good" : "quiet"}>{provider.enabled ? t("pillOn") : t("pillOff")}</Pill>
        {provider.sso_only ? <Pill tone="warn">{t("pillSsoOnly")}</Pill> : null}
        <Pill tone={tested ? "good" : "warn"}>{tested ? t("pillTested") : t("pillUntested")}</Pill>
      </ul>
      <p className="text-sm text-slate-700">
        {provider.enabled ? t("on") : t("off")} {provider.sso_only ? t("ssoOnlyOn") : t("ssoOnlyOff")}
      </p>
      <p className="text-sm text-slate-700" data-sso-tested-at={provider.tested_at ?? ""}>
        {tested ? t("lastTested", { date: tested }) : t("untested")}
      </p>
      {provider.enabled && !hasVerifiedDomain ? (
        <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {t("noVerifiedDomain")}
        </p>
      ) : null}
      {provider.registered_by_operator ? <p className="text-sm text-slate-600">{t("byOperator")}</p> : null}
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-start">
        <SsoActionButton action="test" csrf={csrf} className={`${buttonPrimary} sm:w-auto`}>
          {t("test")}
        </SsoActionButton>
        <SsoActionButton action={provider.enabled ? "disable" : "enable"} {...act}>
          {provider.enabled ? t("turnOff") : t("turnOn")}
        </SsoActionButton>
        {provider.sso_only ? (
          <SsoActionButton action="sso-only-off" {...act}>
            {t("ssoOnlyTurnOff")}
          </SsoActionButton>
        ) : (
          <details className="text-sm sm:max-w-sm">
            <summary className={`${buttonSecondary} cursor-pointer list-none sm:w-auto`}>{t("ssoOnlyTurnOn")}</summary>
            <p className="mt-2 text-slate-700">{t("ssoOnlyWarning")}</p>
            <SsoActionButton
              action="sso-only-on"
              csrf={csrf}
              className="mt-2 rounded-md bg-red-700 px-3 py-2 text-sm font-semibold text-white hover:bg-red-800"
            >
              {t("ssoOnlyConfirm")}
            </SsoActionButton>
          </details>
        )}
      </div>
      <p className="text-sm text-slate-600">{t("testHint")}</p>
    </section>
  );
}
