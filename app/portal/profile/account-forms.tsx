/** The profile page's forms for the account itself: a new password, a new email address. */
import { FORMS } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import type { Profile } from "@/lib/rights/portal";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";
import { Alert, buttonPrimary } from "@/app/_components/ui";
import { fieldAria, FieldError, invalidInput } from "@/app/_components/labelled-field";
import { PasswordField } from "@/app/_components/password-field";

const inputClass = `mt-1 block w-full rounded-md border border-slate-400 px-3 py-2 text-slate-900 shadow-sm focus:border-brand-600 sm:w-96 ${invalidInput}`;
const card = "space-y-4 rounded-lg border border-slate-200 bg-white p-5";

/** What the last form sent did: which form it was, and its refusal's code, if any. */
export interface AccountFormOutcome {
  form?: string;
  error?: string;
  minutes: number;
}

const PASSWORD_ERRORS = ["wrong_current_password", "throttled"] as const;
const EMAIL_ERRORS = ["invalid_email", "same_email", "throttled_email"] as const;
/** The email form's refusals that concern the current password, shown at its field. */
const EMAIL_PASSWORD_ERRORS = ["password_needed", "wrong_current_password", "throttled"] as const;

/**
 * A new email address: confirmed through a link to it. Whoever holds the address can reset the password, so a sign-in
 * older than five minutes must give the current password too (`askPassword`).
 */
async function EmailChangeForm({
  csrf,
  email,
  pendingEmail,
  askPassword,
  error,
  minutes,
}: {
  csrf: string;
  email: string;
  pendingEmail: string | null;
  askPassword: boolean;
  error?: string;
  minutes: number;
}) {
  const t = await getTranslations("ProfileAccount");
  const emailError = EMAIL_ERRORS.find((code) => code === error);
  const emailMessage = emailError ? t(`errors.${emailError}`, { minutes }) : null;
  const passwordError = EMAIL_PASSWORD_ERRORS.find((code) => code === error);
  const passwordMessage = passwordError ? t(`errors.${passwordError}`, { minutes }) : null;
  return (
    <form method="post" action={FORMS.account} className={card} aria-labelledby="email-title">
      <h2 id="email-title" className="text-lg font-semibold text-slate-900">
        {t("emailTitle")}
      </h2>
      <input type="hidden" name={CSRF_FIELD} value={csrf} />
      <p className="text-sm text-slate-600">{t("emailIntro")}</p>
      {pendingEmail ? (
        <p role="status" className="rounded-md border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-900">
          {t("emailRequested", { email: pendingEmail })}
        </p>
      ) : null}
      <div>
        <label htmlFor="new_email" className="block text-sm font-medium text-slate-800">
          {t("newEmail")}
        </label>
        <input
          id="new_email"
          name="new_email"
          type="email"
          autoComplete="email"
          required
          maxLength={254}
          className={inputClass}
          {...fieldAria("new_email", false, emailMessage)}
        />
        <FieldError id="new_email" error={emailMessage} />
      </div>
      {askPassword || passwordMessage ? (
        <div>
          <input type="hidden" name="username" value={email} autoComplete="username" />
          <label htmlFor="email_current_password" className="block text-sm font-medium text-slate-800">
            {t("currentPassword")}
          </label>
          <p id="email_current_password-hint" className="text-sm text-slate-600">
            {t("emailPasswordHint")}
          </p>
          <input
            id="email_current_password"
            name="current_password"
            type="password"
            autoComplete="current-password"
            required
            maxLength={1024}
            className={inputClass}
            {...fieldAria("email_current_password", true, passwordMessage)}
          />
          <FieldError id="email_current_password" error={passwordMessage} />
        </div>
      ) : null}
      <button type="submit" name="action" value="change-email" className={`${buttonPrimary} sm:w-auto`}>
        {t("changeEmail")}
      </button>
    </form>
  );
}

export async function AccountForms({
  profile,
  csrf,
  minLength,
  outcome,
  pendingEmail,
  askPassword,
}: {
  profile: Profile;
  csrf: string;
  minLength: number;
  outcome: AccountFormOutcome;
  pendingEmail: string | null;
  /** the sign-in is not fresh: a new email address needs the current password */
  askPassword: boolean;
}) {
  const t = await getTranslations("ProfileAccount");
  const at = (form: string) => (outcome.form === form ? outcome.error : undefined);
  const passwordError = PASSWORD_ERRORS.find((code) => code === at("password"));
  return (
    <>
      <form method="post" action={FORMS.account} className={card} aria-labelledby="password-title">
        <h2 id="password-title" className="text-lg font-semibold text-slate-900">
          {t("passwordTitle")}
        </h2>
        <input type="hidden" name={CSRF_FIELD} value={csrf} />
        <input type="hidden" name="username" value={profile.email} autoComplete="username" />
        {passwordError ? <Alert>{t(`errors.${passwordError}`, { minutes: outcome.minutes })}</Alert> : null}
        <div>
          <label htmlFor="current_password" className="block text-sm font-medium text-slate-800">
            {t("currentPassword")}
          </label>
          <input
            id="current_password"
            name="current_password"
            type="password"
            autoComplete="current-password"
            required
            maxLength={1024}
            className={inputClass}
            {...fieldAria("current_password", false, passwordError === "wrong_current_password")}
          />
        </div>
        <PasswordField
          id="new_password"
          label={t("newPassword")}
          minLength={minLength}
          person={{
            givenName: profile.givenName,
            familyName: profile.familyName,
            email: profile.email,
            companyName: profile.company,
          }}
          language={profile.preferredLanguage}
          problem={at("password")}
        />
        <input type="hidden" name="sign_out_elsewhere" value="no" />
        <div className="flex items-start gap-2">
          <input
            id="sign_out_elsewhere"
            name="sign_out_elsewhere"
            type="checkbox"
            value="yes"
            defaultChecked
            className="mt-1 h-4 w-4 rounded border-slate-400"
            aria-describedby="sign_out_elsewhere-hint"
          />
          <div>
            <label htmlFor="sign_out_elsewhere" className="text-sm font-medium text-slate-800">
              {t("signOutElsewhere")}
            </label>
            <p id="sign_out_elsewhere-hint" className="text-sm text-slate-600">
              {t("signOutElsewhereHint")}
            </p>
          </div>
        </div>
        <button type="submit" name="action" value="change-password" className={`${buttonPrimary} sm:w-auto`}>
          {t("changePassword")}
        </button>
      </form>
      <EmailChangeForm
        csrf={csrf}
        email={profile.email}
        pendingEmail={pendingEmail}
        askPassword={askPassword}
        error={at("email")}
        minutes={outcome.minutes}
      />
    </>
  );
}
