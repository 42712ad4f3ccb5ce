/** The security page's passkeys: each with its kind and dates, to rename or remove; adding one. */
import { FORMS } from "@/lib/http/paths";
import { getFormatter, getTranslations } from "next-intl/server";
import type { SecurityView } from "@/lib/rights/second-factors";
import { buttonSecondary } from "@/app/_components/ui";
import { DataTable, DataRow, DataCell, DataActions } from "@/app/_components/data-table";
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
        <DataTable
          columns={[t("name"), t("kind"), t("created"), t("lastUsed"), <span className="sr-only">{t("remove")}</span>]}
        >
          {view.passkeys.map((passkey) => (
            <DataRow key={passkey.id} data-passkey={passkey.id}>
              <DataCell className="font-medium text-slate-900">{passkey.name}</DataCell>
              <DataCell label={t("kindLabel")}>
                {passkey.deviceType === "multiDevice" ? t("synced") : t("deviceBound")}
              </DataCell>
              <DataCell label={t("createdLabel")}>{when(passkey.createdAt)}</DataCell>
              <DataCell label={t("lastUsedLabel")}>{when(passkey.lastUsedAt)}</DataCell>
              <DataActions>
                <PasskeyActions id={passkey.id} name={passkey.name} base={base} />
              </DataActions>
            </DataRow>
          ))}
        </DataTable>
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
