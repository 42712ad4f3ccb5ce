import { forbidden, redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { isOperator } from "@/lib/admin/operator-guard";
import { currentSession } from "@/lib/interaction/page-helpers";
import { getServiceContext } from "@/lib/service-context";

export const dynamic = "force-dynamic";

/** Operators only: others get a 403, and no hint of what exists here. */
export default async function AdminLayout({ children }: { children: ReactNode }) {
  const session = await currentSession();
  if (!session) redirect(`/login?${new URLSearchParams({ returnUrl: "/admin/clients" })}`);
  if (!(await isOperator(getServiceContext().db, session))) forbidden();
  const t = await getTranslations("Admin");
  const tab = "rounded px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100";
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-2 border-b border-slate-200 pb-3">
        <span className="mr-2 text-lg font-semibold text-brand-800">{t("title")}</span>
        <nav aria-label={t("title")} className="flex gap-1">
          <a href="/admin/clients" className={tab}>{t("clients")}</a>
          <a href="/admin/audit" className={tab}>{t("audit")}</a>
        </nav>
      </div>
      {children}
    </div>
  );
}
