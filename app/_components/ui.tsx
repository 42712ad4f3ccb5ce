import type { ReactNode } from "react";

/** The centered card that login, consent and sign-out pages are shown in. */
export function SignInCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto w-full max-w-md">
      <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-xl font-semibold text-brand-800">{title}</h1>
        {subtitle ? <div className="mt-1 text-sm text-slate-600">{subtitle}</div> : null}
        <div className="mt-6">{children}</div>
      </div>
    </div>
  );
}

export function Alert({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="mb-4 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {children}
    </p>
  );
}

/** Information the page gives, not a refusal. */
export function Notice({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="mb-4 rounded-md border border-brand-100 bg-brand-50 px-3 py-2 text-sm text-brand-800">
      {children}
    </p>
  );
}

export const buttonPrimary =
  "inline-flex w-full items-center justify-center rounded-md bg-brand-700 px-4 py-2.5 text-sm font-semibold text-white hover:bg-brand-800";
export const buttonSecondary =
  "inline-flex w-full items-center justify-center rounded-md border border-slate-300 bg-white px-4 py-2.5 text-sm font-semibold text-slate-800 hover:bg-slate-50";

/** A short notice in place of a page: access denied, not found. */
export function NoticeCard({ title, text, home }: { title: string; text: string; home: string }) {
  return (
    <div className="mx-auto max-w-md rounded-lg border border-slate-200 bg-white p-6 shadow-sm" role="alert">
      <h1 className="text-xl font-semibold text-brand-800">{title}</h1>
      <p className="mt-2 text-slate-700">{text}</p>
      <a href="/" className="mt-4 inline-block text-sm font-medium text-brand-700 underline underline-offset-2">
        {home}
      </a>
    </div>
  );
}
