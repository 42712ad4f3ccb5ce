import type { ReactNode } from "react";

/** Marks an input whose value was refused by more than its error's text: a red border, as the error is red. */
export const invalidInput = "aria-invalid:border-red-700 aria-invalid:ring-1 aria-invalid:ring-red-700";

/** What an input needs to name its hint and its error to assistive technology. */
export interface FieldAria {
  "aria-describedby"?: string;
  "aria-invalid"?: true;
}

/** The ids of a field's hint and error, joined as aria-describedby wants them (the error first). */
export function fieldAria(id: string, hasHint: boolean, error: ReactNode): FieldAria {
  const ids = [error ? `${id}-error` : "", hasHint ? `${id}-hint` : ""].filter(Boolean).join(" ");
  return { "aria-describedby": ids || undefined, "aria-invalid": error ? true : undefined };
}

/** A field's error, at the field, in words. */
export function FieldError({ id, error }: { id: string; error: ReactNode }) {
  return error ? (
    <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-800">
      {error}
    </p>
  ) : null;
}

/** A labelled input with its hint above and its error below; `children` renders the input with the aria given. */
export function LabelledField({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  children: (aria: FieldAria) => ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="mt-0.5 text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      <div className="mt-1">{children(fieldAria(id, Boolean(hint), error))}</div>
      <FieldError id={id} error={error} />
    </div>
  );
}
