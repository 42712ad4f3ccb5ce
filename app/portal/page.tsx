import { PAGES } from "@/lib/http/paths";
import { redirect } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { pageData } from "@/lib/pages/page-data";
import { companyDashboard } from "@/lib/rights/dashboard";
import { homeFor, type HomeView, type RoleTasks } from "@/lib/rights/home";
import { Dashboard } from "@/app/_components/dashboard/dashboard";

export const dynamic = "force-dynamic";

interface Task {
  name: string;
  count: number;
  label: string;
  href: string;
  /** something waits for this person */
  urgent?: boolean;
}

type Translate = Awaited<ReturnType<typeof getTranslations<"PortalHome">>>;

function tasksOf(tasks: RoleTasks, t: Translate): Task[] {
  switch (tasks.kind) {
    case "supplier":
      return [
        {
          name: "releases",
          count: tasks.releasesWaiting,
          label: t("releasesWaiting"),
          href: PAGES.catalogs,
          urgent: true,
        },
        {
          name: "requests",
          count: tasks.requestsToDecide,
          label: t("requestsToDecide"),
          href: PAGES.suppliers,
          urgent: true,
        },
        { name: "downloads", count: tasks.downloads, label: t("downloads"), href: PAGES.catalogs },
      ];
    case "optician":
      return [
        { name: "requests", count: tasks.requestsWaiting, label: t("requestsWaiting"), href: PAGES.suppliers },
        { name: "suppliers", count: tasks.activeSuppliers, label: t("activeSuppliers"), href: PAGES.suppliers },
        { name: "applications", count: tasks.applications, label: t("applications"), href: PAGES.portal },
      ];
    case "partner":
      return [
        { name: "rejected", count: tasks.rejected, label: t("appsRejected"), href: PAGES.developer, urgent: true },
        { name: "pending", count: tasks.pending, label: t("appsPending"), href: PAGES.developer },
        { name: "approved", count: tasks.approved, label: t("appsApproved"), href: PAGES.developer },
      ];
    case "member":
      return [{ name: "applications", count: tasks.applications, label: t("applications"), href: PAGES.portal }];
  }
}

function TaskCard({ task }: { task: Task }) {
  const waiting = task.urgent && task.count > 0;
  return (
    <li data-task={task.name}>
      <a
        href={task.href}
        className={`block rounded-lg border p-4 shadow-sm hover:border-brand-600 focus-visible:border-brand-600 ${
          waiting ? "border-amber-400 bg-amber-50" : "border-slate-200 bg-white"
        }`}
      >
        <span className="block text-2xl font-semibold tabular-nums text-slate-900">{task.count}</span>
        <span className="block text-sm text-slate-800">{task.label}</span>
      </a>
    </li>
  );
}

function securityLine(home: HomeView, t: Translate): { text: string; warn: boolean } {
  if (home.security.secondFactor) return { text: t("securityOn"), warn: false };
  return { text: home.security.required ? t("securityRequired") : t("securityOff"), warn: true };
}

/**
 * Each person's home (lib/rights/home.ts): what needs doing first, as counts linking to the lists, their security
 * status, and for a company's administrator the company's dashboard. An operator's home is /admin.
 */
export default async function PortalHomePage() {
  const locale = await getLocale();
  const home = await pageData(PAGES.home, (actor) => homeFor(actor, locale));
  if (home.operator) redirect(PAGES.admin);
  const dashboard = home.companyAdmin ? await pageData(PAGES.home, (actor) => companyDashboard(actor)) : null;
  const t = await getTranslations("PortalHome");
  const tasks = tasksOf(home.tasks, t).sort(
    (a, b) => Number(Boolean(b.urgent && b.count)) - Number(Boolean(a.urgent && a.count)),
  );
  const security = securityLine(home, t);
  return (
    <div className="space-y-8" data-home={home.tasks.kind}>
      <div>
        <h1 className="text-2xl font-semibold text-brand-800">{t("title")}</h1>
        <p className="text-sm text-slate-700">{t("intro", { company: home.companyName })}</p>
      </div>
      <section aria-labelledby="tasks-heading" className="space-y-3">
        <h2 id="tasks-heading" className="text-lg font-semibold text-slate-900">
          {t("tasksTitle")}
        </h2>
        <ul className="grid grid-cols-1 gap-3 sm:grid-cols-3">
          {tasks.map((task) => (
            <TaskCard key={task.name} task={task} />
          ))}
        </ul>
        <p
          data-security={security.warn ? "warn" : "ok"}
          className={`rounded-md border px-3 py-2 text-sm ${
            security.warn
              ? "border-amber-400 bg-amber-50 text-amber-900"
              : "border-green-200 bg-green-50 text-green-900"
          }`}
        >
          {security.text}{" "}
          <a href={PAGES.security} className="font-medium underline">
            {t("securityLink")}
          </a>
        </p>
      </section>
      {dashboard ? <Dashboard view={dashboard} /> : null}
    </div>
  );
}
