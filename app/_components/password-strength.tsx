"use client";
/**
 * A new-password input with its strength shown as the person types. The estimator (zxcvbn with its dictionaries,
 * the same module the server decides with) is loaded on the first keystroke, with the packs of `languages` alone, and
 * runs in the browser: the password goes nowhere but the form's own POST. Names typed in the same form (the
 * invitation's `given_name` and `family_name`) count as the person's own words, as they do on the server.
 */
import { useRef, useState } from "react";
import type { PersonalWords } from "@/lib/crypto/password-estimator";
import type { FieldAria } from "@/app/_components/labelled-field";

type Estimator = typeof import("@/lib/crypto/password-estimator");

export interface StrengthTexts {
  label: string;
  /** the names of scores 0 to 4 */
  levels: string[];
  local: string;
  /** zxcvbn's warnings by key, in the page's language */
  warnings: Record<string, string>;
}

/** The names typed in the password's form, where it has such fields. */
function typedNames(form: HTMLFormElement | null): PersonalWords {
  const typed = (name: string) => {
    const field = form?.elements.namedItem(name);
    return field instanceof HTMLInputElement && field.value ? field.value : undefined;
  };
  const names = { givenName: typed("given_name"), familyName: typed("family_name") };
  return Object.fromEntries(Object.entries(names).filter(([, value]) => value !== undefined));
}

const BAR = ["bg-red-700", "bg-red-700", "bg-amber-600", "bg-green-700", "bg-green-700"];

export function PasswordStrengthInput({
  id,
  name,
  minLength,
  maxLength,
  person,
  languages,
  texts,
  inputClass,
  aria,
}: {
  id: string;
  name: string;
  minLength: number;
  maxLength: number;
  person: PersonalWords;
  /** the page's language and the person's, as the server reads them */
  languages: string[];
  texts: StrengthTexts;
  inputClass: string;
  aria: FieldAria;
}) {
  const estimator = useRef<Promise<Estimator> | null>(null);
  const [shown, setShown] = useState<{ score: number; warning?: string } | null>(null);

  async function estimate(input: HTMLInputElement) {
    const password = input.value;
    if ([...password].length < minLength) return setShown(null);
    estimator.current ??= import("@/lib/crypto/password-estimator");
    const { estimateStrength } = await estimator.current;
    const typed = { ...person, ...typedNames(input.form) };
    const strength = await estimateStrength(password.normalize("NFKC"), typed, languages);
    setShown({ score: strength.score, warning: strength.warning ? texts.warnings[strength.warning] : undefined });
  }

  return (
    <>
      <input
        id={id}
        name={name}
        type="password"
        autoComplete="new-password"
        required
        minLength={minLength}
        maxLength={maxLength}
        className={inputClass}
        onInput={(event) => void estimate(event.currentTarget)}
        {...aria}
        aria-describedby={[aria["aria-describedby"], `${id}-strength`].filter(Boolean).join(" ")}
      />
      <div id={`${id}-strength`} className="mt-2" aria-live="polite">
        {shown ? (
          <>
            <div className="flex gap-1" aria-hidden="true">
              {[0, 1, 2, 3].map((step) => (
                <span
                  key={step}
                  className={`h-1.5 flex-1 rounded ${step < Math.max(1, shown.score) ? BAR[shown.score] : "bg-slate-200"}`}
                />
              ))}
            </div>
            <p className="mt-1 text-sm text-slate-700" data-password-strength={shown.score}>
              {texts.label} <strong>{texts.levels[shown.score]}</strong>
              {shown.warning ? ` — ${shown.warning}` : null}
            </p>
          </>
        ) : (
          <p className="text-xs text-slate-500">{texts.local}</p>
        )}
      </div>
    </>
  );
}
