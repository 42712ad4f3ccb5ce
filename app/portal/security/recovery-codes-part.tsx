/** The security page's recovery codes: how many are left, new ones (shown once). */
import { FORMS } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import type { SecurityView } from "@/lib/rights/second-factors";
import { buttonSecondary } from "@/app/_components/ui";
import { card, Hidden, type FormBase } from "./factor-form-parts";

export async function RecoveryCodes({ view, base, shown }: { view: SecurityView; base: FormBase; shown?: string[] }) {
  const t = await getTranslations("SecuritySecondFactor");
  const enrolled = view.passkeys.length > 0 || view.totp === "on";
  return (
    <section aria-labelledby="recovery-title" className={card}>
      <h3 id="recovery-title" className="text-base font-semibold text-slate-900">
        {t("recoveryTitle")}
      </h3>
      <p className="text-sm text-slate-600">{t("recoveryIntro")}</p>
      {shown ? (
        <div role="status" className="rounded-md border border-green-300 bg-green-50 p-3 text-sm text-green-900">
          <p className="font-medium">{t("recoveryShown")}</p>
          <ol className="mt-2 grid grid-cols-2 gap-x-6 gap-y-1 font-mono sm:grid-cols-5">
            {shown.map((code) => (
              <li key={code} data-recovery-code={code} className="select-all">
                {code}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
      <p className="text-sm text-slate-800">
        {enrolled ? t("recoveryLeft", { count: view.recoveryCodesLeft }) : t("recoveryNone")}
      </p>
      {enrolled ? (
        <form method="post" action={FORMS.security} className="space-y-2">
          <Hidden {...base} />
          <button type="submit" name="action" value="recovery-renew" className={`${buttonSecondary} sm:w-auto`}>
            {t("renew")}
          </button>
        </form>
      ) : null}
    </section>
  );
}
