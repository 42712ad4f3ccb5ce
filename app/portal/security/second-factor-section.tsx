/**
 * The security page's second factors: passkeys (add, rename, remove), the authenticator app (set up with its QR code
 * and key, confirmed with a first code; removed), and recovery codes (how many are left; new ones, shown once).
 */
import { PAGES } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import type { SecurityView } from "@/lib/rights/second-factors";
import { buttonPrimary } from "@/app/_components/ui";
import { AuthenticatorApp } from "./authenticator-app-part";
import { Passkeys } from "./passkeys-part";
import { RecoveryCodes } from "./recovery-codes-part";

export async function SecondFactorSection({
  view,
  csrf,
  returnUrl,
  shownCodes,
}: {
  view: SecurityView;
  csrf: string;
  returnUrl?: string;
  shownCodes?: string[];
}) {
  const t = await getTranslations("SecuritySecondFactor");
  const base = { csrf, returnUrl };
  return (
    <section id="second-factor" aria-labelledby="second-factor-title" className="space-y-4">
      <h2 id="second-factor-title" className="text-lg font-semibold text-slate-900">
        {t("title")}
      </h2>
      <p className="text-sm text-slate-600">{t("intro")}</p>
      {view.required && !view.mfa ? (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {t("required")}
        </p>
      ) : null}
      {returnUrl && view.mfa ? (
        <a href={returnUrl} className={`${buttonPrimary} sm:w-auto`} data-continue>
          {t("continue")}
        </a>
      ) : null}
      {view.confirmFirst ? (
        <p className="rounded-md border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-900" data-confirm-first>
          {t("confirmFirst")}{" "}
          <a
            href={`${PAGES.secondFactor}?${new URLSearchParams({ returnUrl: `${PAGES.security}#second-factor` })}`}
            className="font-medium underline"
          >
            {t("confirmNow")}
          </a>
        </p>
      ) : null}
      <Passkeys view={view} base={base} />
      <AuthenticatorApp view={view} base={base} />
      <RecoveryCodes view={view} base={base} shown={shownCodes} />
    </section>
  );
}
