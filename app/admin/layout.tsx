import { PAGES } from "@/lib/http/paths";
import { forbidden } from "next/navigation";
import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { isOperator } from "@/lib/rights/actor";
import { currentActor } from "@/lib/pages/current-actor";

export const dynamic = "force-dynamic";

/**
 * The operator area's frame. Sending users who are not operators to the 403 page here is for a pleasant experience
 * only: the pages render in parallel with this layout, and each reads its data through the data-access layer, which
 * refuses anyone but operators (and sends visitors to the login page, back to the page they asked for).
 */
export default async function AdminLayout({ children }: { children: ReactNode }) {
  const actor = await currentActor();
  // Visitors: each page sends them to the login page (or to their second factor), which returns them to that page.
  if (actor.kind === "anonymous" || actor.kind === "second_factor_owed") return children;
  if (!isOperator(actor)) forbidden();
  const t = await getTranslations("Admin");
  const tab = "rounded px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100";
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-2 border-b border-slate-200 pb-3">
        <span className="mr-2 text-lg font-semibold text-brand-800">{t("title")}</span>
        <nav aria-label={t("title")} className="flex flex-wrap gap-1">
          <a href={PAGES.admin} className={tab}>
            {t("dashboard")}
          </a>
          <a href={PAGES.adminClients} className={tab}>
            {t("clients")}
          </a>
          <a href={PAGES.adminCompanies} className={tab}>
            {t("companies")}
          </a>
          <a href={PAGES.adminOutbox} className={tab}>
            {t("outbox")}
          </a>
          <a href={PAGES.adminWebhooks} className={tab}>
            {t("webhooks")}
          </a>
          <a href={PAGES.adminAudit} className={tab}>
            {t("audit")}
          </a>
          <a href={PAGES.adminFederation} className={tab}>
            {t("federation")}
          </a>
        </nav>
      </div>
      {children}
    </div>
  );
}
