/** The form that asks for a password reset link: on the forgot-password page and where a link could not be used. */
import { FORMS } from "@/lib/http/paths";
import type { ReactNode } from "react";

export function ForgotPasswordForm({
  csrf,
  proof,
  returnUrl,
  email,
  labels,
  buttonClass,
}: {
  csrf: ReactNode;
  /** the proof of work the page asks for under attack */
  proof?: ReactNode;
  returnUrl?: string;
  email: string;
  labels: { email: string; submit: string };
  buttonClass: string;
}) {
  return (
    <form method="post" action={FORMS.forgotPassword} className="space-y-4">
      {csrf}
      {returnUrl ? <input type="hidden" name="returnUrl" value={returnUrl} /> : null}
      <div>
        <label htmlFor="email" className="block text-sm font-medium text-slate-800">
          {labels.email}
        </label>
        <input
          id="email"
          name="email"
          type="email"
          autoComplete="username"
          required
          maxLength={254}
          defaultValue={email}
          className="mt-1 block w-full rounded-md border border-slate-400 px-3 py-2 text-slate-900 shadow-sm focus:border-brand-600"
        />
      </div>
      {proof}
      <button type="submit" className={buttonClass}>
        {labels.submit}
      </button>
    </form>
  );
}
