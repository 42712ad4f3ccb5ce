/** The security page's passkeys: each with its kind and dates, to rename or remove; adding one. */
import { FORMS } from "@/lib/http/paths";
import { getFormatter, getTranslations } from "next-intl/server";
import type { SecurityView } from "@/lib/rights/second-factors";
import { buttonSecondary } from "@/app/_components/ui";
import { stacked } from "@/app/_components/stacked-table";
import { PasskeyButton } from "@/app/_components/passkey-button";
import { passkeyErrors } from "@/app/_components/passkey-errors";
import { card, Hidden, input, OwnerPassword, type FormBase } from "./factor-form-parts";

export async function Passkeys({ view, base }: { view: SecurityView; base: FormBase }) {
  const [t, format] = [await getTranslations("SecuritySecondFactor"), await getFormatter()];
  const when = (date: Date | null) => (date ? format.dateTime(date, { dateStyle: "medium" }) : t("never"));
  return (
    <section aria-labelledby="passkeys-title" className={card}>
      <h3 id="passkeys-title" className="text-base font-semibold text-slate-900">
        {t("passkeysTitle")}
      </h3>
      <p className="text-sm text-slate-600">{t("passkeysIntro")}</p>
      {view.passkeys.length === 0 ? <p className="text-sm text-slate-700">{t("passkeysNone")}</p> : null}
      {view.passkeys.length > 0 ? (
        <table className={stacked.table}>
          <thead className={stacked.head}>
            <tr>
              <th className={stacked.th}>{t("name")}</th>
              <th className={stacked.th}>{t("kind")}</th>
              <th className={stacked.th}>{t("created")}</th>
              <th className={stacked.th}>{t("lastUsed")}</th>
              <th className={stacked.th}>
                <span className="sr-only">{t("remove")}</span>
              </th>
            </tr>
          </thead>
          <tbody className={stacked.body}>
            {view.passkeys.map((passkey) => (
              <tr key={passkey.id} data-passkey={passkey.id} className={stacked.row}>
                <td className={`${stacked.cell} font-medium text-slate-900`}>{passkey.name}</td>
                <td className={stacked.cell}>
                  <span className={stacked.label}>{t("kindLabel")}</span>
                  {passkey.deviceType === "multiDevice" ? t("synced") : t("deviceBound")}
                </td>
                <td className={stacked.cell}>
                  <span className={stacked.label}>{t("createdLabel")}</span>
                  {when(passkey.createdAt)}
                </td>
                <td className={stacked.cell}>
                  <span className={stacked.label}>{t("lastUsedLabel")}</span>
                  {when(passkey.lastUsedAt)}
                </td>
                <td className={stacked.cell}>
                  <PasskeyActions id={passkey.id} name={passkey.name} base={base} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <div className="space-y-2 border-t border-slate-200 pt-3">
        <label htmlFor="passkey-name" className="block text-sm font-medium text-slate-800">
          {t("passkeyName")}
        </label>
        <input id="passkey-name" maxLength={100} placeholder={t("passkeyNamePlaceholder")} className={input} />
        <OwnerPassword id="passkey-password" show={view.askPassword} />
        <PasskeyButton
          mode="register"
          csrf={base.csrf}
          label={t("addPasskey")}
          errors={await passkeyErrors()}
          className={`${buttonSecondary} sm:w-auto`}
          nameInput="passkey-name"
          passwordInput={view.askPassword ? "passkey-password" : undefined}
        />
      </div>
    </section>
  );
}

async function PasskeyActions({ id, name, base }: { id: string; name: string; base: FormBase }) {
  const t = await getTranslations("SecuritySecondFactor");
  return (
    <details>
      <summary className="cursor-pointer text-sm font-medium text-brand-700">
        {t("rename")} / {t("remove")}
      </summary>
      <form method="post" action={FORMS.security} className="mt-2 space-y-2">
        <Hidden {...base} />
        <input type="hidden" name="passkey_id" value={id} />
        <label htmlFor={`rename-${id}`} className="block text-sm text-slate-800">
          {t("newName")}
        </label>
        <input id={`rename-${id}`} name="name" defaultValue={name} maxLength={100} required className={input} />
        <button
          type="submit"
          name="action"
          value="passkey-rename"
          aria-label={t("renameNamed", { name })}
          className={`${buttonSecondary} sm:w-auto`}
        >
          {t("rename")}
        </button>
      </form>
      <form method="post" action={FORMS.security} className="mt-3 space-y-2">
        <Hidden {...base} />
        <input type="hidden" name="passkey_id" value={id} />
        <button
          type="submit"
          name="action"
          value="passkey-remove"
          aria-label={t("removeNamed", { name })}
          className={`${buttonSecondary} sm:w-auto`}
        >
          {t("remove")}
        </button>
      </form>
    </details>
  );
}
