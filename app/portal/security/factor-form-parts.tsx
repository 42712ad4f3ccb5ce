/** What the security page's second-factor forms share: their hidden fields, the owner's password, the looks. */
import { getTranslations } from "next-intl/server";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";

export const input =
  "mt-1 block w-full rounded-md border border-slate-400 px-3 py-2 text-slate-900 shadow-sm focus:border-brand-600 sm:w-80";
export const card = "space-y-3 rounded-lg border border-slate-200 bg-white p-5";

export interface FormBase {
  csrf: string;
  returnUrl?: string;
}

export function Hidden({ csrf, returnUrl }: FormBase) {
  return (
    <>
      <input type="hidden" name={CSRF_FIELD} value={csrf} />
      {returnUrl ? <input type="hidden" name="returnUrl" value={returnUrl} /> : null}
    </>
  );
}

/** The password field of a form that needs the owner's proof, when the sign-in is not fresh. */
export async function OwnerPassword({ id, show }: { id: string; show: boolean }) {
  if (!show) return null;
  const t = await getTranslations("SecuritySecondFactor");
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {t("password")}
      </label>
      <p id={`${id}-hint`} className="text-sm text-slate-600">
        {t("passwordHint")}
      </p>
      <input
        id={id}
        name="current_password"
        type="password"
        autoComplete="current-password"
        required
        maxLength={1024}
        aria-describedby={`${id}-hint`}
        className={input}
      />
    </div>
  );
}
