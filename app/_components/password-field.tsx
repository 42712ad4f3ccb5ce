/**
 * The field for choosing a password (invitation, reset, change): its label, the policy in a line, the input with
 * its strength meter (reading the page's language and the person's, as the server does), and the reason a password
 * was refused, announced as an alert.
 */
import { getLocale, getTranslations } from "next-intl/server";
import { MAX_PASSWORD_LENGTH } from "@/lib/crypto/password-policy";
import type { PersonalWords } from "@/lib/crypto/password-estimator";
import { fieldAria, invalidInput } from "@/app/_components/labelled-field";
import { PasswordStrengthInput } from "@/app/_components/password-strength";

const PASSWORD_PROBLEMS = [
  "password_too_short",
  "password_too_long",
  "password_invalid_characters",
  "password_too_guessable",
  "password_breached",
] as const;

const inputClass = `mt-1 block w-full rounded-md border border-slate-400 px-3 py-2 text-slate-900 shadow-sm focus:border-brand-600 ${invalidInput}`;

export async function PasswordField({
  id,
  label,
  minLength,
  person,
  language,
  problem,
}: {
  id: string;
  label: string;
  minLength: number;
  person: PersonalWords;
  /** the person's own language (their preference, an invitation's), whose words count as the page language's do */
  language?: string | null;
  /** the code of the refusal of the password last sent, if it was this field's */
  problem?: string;
}) {
  const t = await getTranslations("Password");
  const limits = { min: minLength, max: MAX_PASSWORD_LENGTH };
  const known = PASSWORD_PROBLEMS.find((code) => code === problem);
  const error = known ? t(`errors.${known}`, limits) : null;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <p id={`${id}-hint`} className="mt-0.5 text-sm text-slate-600">
        {t("hint", limits)}
      </p>
      <PasswordStrengthInput
        id={id}
        name={id}
        minLength={minLength}
        maxLength={MAX_PASSWORD_LENGTH}
        person={person}
        languages={[await getLocale(), ...(language ? [language] : [])]}
        texts={{
          label: t("strengthLabel"),
          levels: (["0", "1", "2", "3", "4"] as const).map((score) => t(`strength.${score}`)),
          local: t("strengthLocal"),
          warnings: t.raw("warnings") as Record<string, string>,
        }}
        inputClass={inputClass}
        aria={fieldAria(id, true, error)}
      />
      {error ? (
        <p id={`${id}-error`} role="alert" className="mt-1 text-sm font-medium text-red-800">
          {error}
        </p>
      ) : null}
    </div>
  );
}
