import type { Metadata } from "next";
import type { ReactNode } from "react";
import { getLocale, getTranslations } from "next-intl/server";
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("Meta");
  return { title: t("title"), description: t("description") };
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const locale = await getLocale();
  const t = await getTranslations("Layout");
  return (
    <html lang={locale}>
      <body className="flex min-h-screen flex-col bg-slate-50 font-sans text-slate-900 antialiased">
        <header className="border-b border-slate-200 bg-white">
          <div className="mx-auto flex max-w-5xl items-center gap-3 px-4 py-3">
            <a href="/" className="flex items-center gap-3 rounded">
              <span aria-hidden="true" className="grid h-9 w-9 place-items-center rounded-full bg-brand-700 text-sm font-bold text-white">
                OG
              </span>
              <span className="text-lg font-semibold tracking-tight text-brand-800">{t("serviceName")}</span>
            </a>
            <span className="hidden text-sm text-slate-600 sm:inline">{t("tagline")}</span>
          </div>
        </header>
        <main className="mx-auto w-full max-w-5xl flex-1 px-4 py-8">{children}</main>
        <footer className="border-t border-slate-200 bg-white">
          <p className="mx-auto max-w-5xl px-4 py-4 text-sm text-slate-600">{t("footer")}</p>
        </footer>
      </body>
    </html>
  );
}
