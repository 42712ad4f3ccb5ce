import type { Metadata } from "next";
import { Suspense, type ReactNode } from "react";
import { getLocale, getTranslations } from "next-intl/server";
import { isOperator, supplierOf } from "@/lib/rights/actor";
import { currentActor } from "@/lib/pages/current-actor";
import { LanguageSwitch } from "./_components/language-switch";
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("Meta");
  return { title: t("title"), description: t("description") };
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const locale = await getLocale();
  const t = await getTranslations("Layout");
  const actor = await currentActor();
  const publishes = supplierOf(actor) !== undefined;
  const registers =
    actor.kind === "user" && (actor.company.kind === "eye_care_professional" || actor.company.kind === "supplier");
  const navLink = "rounded px-2 py-1 text-slate-700 underline-offset-2 hover:underline";
  return (
    <html lang={locale}>
      <body className="flex min-h-screen flex-col bg-slate-50 font-sans text-slate-900 antialiased">
        <header className="border-b border-slate-200 bg-white">
          <div className="mx-auto flex max-w-5xl items-center gap-3 px-4 py-3">
            <a href="/" className="flex items-center gap-3 rounded">
              <span
                aria-hidden="true"
                className="grid h-9 w-9 place-items-center rounded-full bg-brand-700 text-sm font-bold text-white"
              >
                OG
              </span>
              <span className="text-lg font-semibold tracking-tight text-brand-800">{t("serviceName")}</span>
            </a>
            <span className="hidden text-sm text-slate-600 lg:inline">{t("tagline")}</span>
            <div className="ml-auto flex min-w-0 flex-wrap items-center justify-end gap-x-2 gap-y-1">
              {actor.kind === "user" ? (
                <nav aria-label={t("mainNavigation")} className="flex flex-wrap items-center justify-end gap-1 text-sm">
                  <a href="/portal/applications" className={navLink}>
                    {t("applications")}
                  </a>
                  {publishes ? (
                    <a href="/portal/catalogs" className={navLink}>
                      {t("catalogs")}
                    </a>
                  ) : null}
                  {registers ? (
                    <a href="/portal/suppliers" className={navLink}>
                      {t("suppliers")}
                    </a>
                  ) : null}
                  {isOperator(actor) ? (
                    <a href="/admin/clients" className={navLink}>
                      {t("operator")}
                    </a>
                  ) : null}
                  <a href="/portal/profile" className={navLink}>
                    {t("profile")}
                  </a>
                  <a href="/signout" className={navLink}>
                    {t("signOut")}
                  </a>
                </nav>
              ) : null}
              <Suspense>
                <LanguageSwitch current={locale} label={t("language")} />
              </Suspense>
            </div>
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
