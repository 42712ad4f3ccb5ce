import { PAGES } from "@/lib/http/paths";
import type { Metadata } from "next";
import { Suspense, type ReactNode } from "react";
import { getLocale, getTranslations } from "next-intl/server";
import { isOperator, supplierOf, type SignedInUser } from "@/lib/rights/actor";
import { isCompanyAdmin } from "@/lib/rights/company-people";
import { isPartnerDeveloper } from "@/lib/rights/partner-portal";
import { currentActor } from "@/lib/pages/current-actor";
import { LanguageSwitch } from "./_components/language-switch";
import { MainMenu, type MenuItem } from "./_components/main-menu";
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("Meta");
  return { title: t("title"), description: t("description") };
}

/** The signed-in user's menu: the portal pages their company's kind and their roles give them. */
function menuOf(actor: SignedInUser, t: (key: string) => string): MenuItem[] {
  const publishes = supplierOf(actor) !== undefined;
  const registers = actor.company.kind === "eye_care_professional" || actor.company.kind === "supplier";
  return [
    isOperator(actor) ? { href: PAGES.admin, label: t("home") } : { href: PAGES.home, label: t("home") },
    { href: PAGES.portal, label: t("applications"), section: PAGES.portal },
    ...(publishes ? [{ href: PAGES.catalogs, label: t("catalogs"), section: PAGES.catalogs }] : []),
    ...(registers ? [{ href: PAGES.suppliers, label: t("suppliers"), section: PAGES.suppliers }] : []),
    ...(isCompanyAdmin(actor) ? [{ href: PAGES.company, label: t("company"), section: PAGES.company }] : []),
    ...(isPartnerDeveloper(actor) ? [{ href: PAGES.developer, label: t("developer"), section: PAGES.developer }] : []),
    ...(isOperator(actor) ? [{ href: PAGES.adminClients, label: t("operator"), section: PAGES.admin }] : []),
    { href: PAGES.profile, label: t("profile"), section: PAGES.profile },
    { href: PAGES.security, label: t("security"), section: PAGES.security },
    { href: PAGES.signOut, label: t("signOut"), section: PAGES.signOut },
  ];
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const locale = await getLocale();
  const t = await getTranslations("Layout");
  const actor = await currentActor();
  const menu =
    actor.kind === "user"
      ? menuOf(actor, t)
      : actor.kind === "second_factor_owed"
        ? [
            { href: PAGES.security, label: t("security"), section: PAGES.security },
            { href: PAGES.signOut, label: t("signOut"), section: PAGES.signOut },
          ]
        : [];
  return (
    <html lang={locale}>
      <body className="flex min-h-screen flex-col bg-slate-50 font-sans text-slate-900 antialiased">
        <header className="border-b border-slate-200 bg-white">
          <div className="mx-auto flex max-w-5xl flex-wrap items-center gap-x-3 gap-y-2 px-4 py-3">
            <div className="mr-auto flex items-center gap-3">
              <a href="/" className="flex items-center gap-3 rounded">
                <span
                  aria-hidden="true"
                  className="grid h-9 w-9 place-items-center rounded-full bg-brand-700 text-sm font-bold text-white"
                >
                  OG
                </span>
                <span className="text-lg font-semibold tracking-tight text-brand-800">{t("serviceName")}</span>
              </a>
              {menu.length === 0 ? (
                // Beside a menu there is no room for it.
                <span className="hidden text-sm text-slate-600 lg:inline">{t("tagline")}</span>
              ) : null}
            </div>
            {menu.length > 0 ? <MainMenu items={menu} label={t("mainNavigation")} buttonLabel={t("menu")} /> : null}
            <Suspense>
              <LanguageSwitch current={locale} label={t("language")} />
            </Suspense>
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
