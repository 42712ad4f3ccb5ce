/** The security page's authenticator app: setting it up (QR code, key, a first code), removing it. */
import { FORMS } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import type { SecurityView } from "@/lib/rights/second-factors";
import { buttonPrimary, buttonSecondary } from "@/app/_components/ui";
import { card, Hidden, input, OwnerPassword, type FormBase } from "./factor-form-parts";

export async function AuthenticatorApp({ view, base }: { view: SecurityView; base: FormBase }) {
  const t = await getTranslations("SecuritySecondFactor");
  return (
    <section aria-labelledby="app-title" className={card} data-totp={view.totp}>
      <h3 id="app-title" className="text-base font-semibold text-slate-900">
        {t("appTitle")}
      </h3>
      <p className="text-sm text-slate-600">{view.totp === "on" ? t("appOn") : t("appOff")}</p>
      {view.totp === "off" ? (
        <form method="post" action={FORMS.security} className="space-y-2">
          <Hidden {...base} />
          <OwnerPassword id="app-setup-password" show={view.askPassword} />
          <button type="submit" name="action" value="totp-start" className={`${buttonSecondary} sm:w-auto`}>
            {t("setUp")}
          </button>
        </form>
      ) : null}
      {view.totp === "waiting" && view.enrolment ? <AppEnrolment view={view} base={base} /> : null}
      {view.totp === "on" ? (
        <form method="post" action={FORMS.security} className="space-y-2">
          <Hidden {...base} />
          <button type="submit" name="action" value="totp-remove" className={`${buttonSecondary} sm:w-auto`}>
            {t("removeApp")}
          </button>
        </form>
      ) : null}
    </section>
  );
}

async function AppEnrolment({ view, base }: { view: SecurityView; base: FormBase }) {
  const t = await getTranslations("SecuritySecondFactor");
  const enrolment = view.enrolment!;
  const qr = `data:image/svg+xml;base64,${Buffer.from(enrolment.qrSvg).toString("base64")}`;
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-800">{t("scan")}</p>
      {/* A data URL of the SVG the server drew: no request leaves the page, and nothing runs. */}
      <img src={qr} alt={t("qr")} width={200} height={200} className="rounded border border-slate-200 bg-white" />
      <p className="text-sm text-slate-800">
        {t("secret")}{" "}
        <code data-totp-secret={enrolment.secret} className="select-all break-all font-mono text-slate-900">
          {enrolment.secret.match(/.{1,4}/g)!.join(" ")}
        </code>
      </p>
      <form method="post" action={FORMS.security} className="space-y-2">
        <Hidden {...base} />
        <label htmlFor="totp-code" className="block text-sm font-medium text-slate-800">
          {t("confirmCode")}
        </label>
        <input
          id="totp-code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={6}
          required
          className={`${input} font-mono tracking-widest`}
        />
        <div className="flex flex-wrap gap-3">
          <button type="submit" name="action" value="totp-confirm" className={`${buttonPrimary} sm:w-auto`}>
            {t("confirm")}
          </button>
          <button
            type="submit"
            name="action"
            value="totp-remove"
            formNoValidate
            className={`${buttonSecondary} sm:w-auto`}
          >
            {t("cancel")}
          </button>
        </div>
      </form>
    </div>
  );
}
