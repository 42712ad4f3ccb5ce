/**
 * The dashboard of lib/rights/dashboard.ts, for the operator (the platform) or a company's administrator (their
 * company): the week's figures first, each linking to its list, then sign-ins per hour, tokens by grant and catalog
 * downloads. What waits for a decision comes first of all.
 */
import { getFormatter, getTranslations } from "next-intl/server";
import { PAGES } from "@/lib/http/paths";
import type { DashboardView } from "@/lib/rights/dashboard";
import { BarList } from "@/app/_components/dashboard/bar-list";
import { SignInChart } from "@/app/_components/dashboard/sign-in-chart";

function Figure({ label, value, href, name }: { label: string; value: string; href?: string; name: string }) {
  const body = (
    <>
      <span className="block text-2xl font-semibold tabular-nums text-slate-900">{value}</span>
      <span className="block text-sm text-slate-700">{label}</span>
    </>
  );
  const box = "block rounded-lg border border-slate-200 bg-white p-4 shadow-sm";
  return (
    <li data-figure={name}>
      {href ? (
        <a href={href} className={`${box} hover:border-brand-600 focus-visible:border-brand-600`}>
          {body}
        </a>
      ) : (
        <div className={box}>{body}</div>
      )}
    </li>
  );
}

type Translate = Awaited<ReturnType<typeof getTranslations<"Dashboard">>>;
type SignInTotal = (key: "succeeded" | "failed" | "locked") => number;

/** The week's figures, what waits for a decision first, each linking to its list where there is one. */
function figuresOf(view: DashboardView, t: Translate, number: (value: number) => string, total: SignInTotal) {
  const platform = view.scope.kind === "platform";
  const { pending, outbox } = view;
  return [
    pending.applications !== undefined && {
      name: "pending-applications",
      label: t("pendingApplications"),
      value: number(pending.applications),
      href: PAGES.adminClients,
    },
    pending.registrationRequests !== undefined && {
      name: "registration-requests",
      label: t("registrationRequests"),
      value: number(pending.registrationRequests),
      href: PAGES.suppliers,
    },
    {
      name: "sign-ins",
      label: t("signIns"),
      value: number(total("succeeded")),
      href: platform ? PAGES.adminAudit : undefined,
    },
    {
      name: "failures",
      label: t("failures"),
      value: number(total("failed")),
      href: platform ? PAGES.adminAudit : undefined,
    },
    {
      name: "lockouts",
      label: t("lockouts"),
      value: number(total("locked")),
      href: platform ? PAGES.adminAudit : undefined,
    },
    { name: "active-sessions", label: t("activeSessions"), value: number(view.activeSessions) },
    outbox && {
      name: "outbox-queued",
      label: t("outboxQueued"),
      value: number(outbox.queued),
      href: PAGES.adminOutbox,
    },
    outbox && {
      name: "outbox-failed",
      label: t("outboxFailed"),
      value: number(outbox.failed),
      href: PAGES.adminOutbox,
    },
    outbox && {
      name: "outbox-oldest",
      label: t("outboxOldest"),
      value:
        outbox.oldestWaitingSeconds === null
          ? t("none")
          : t("minutes", { minutes: Math.ceil(outbox.oldestWaitingSeconds / 60) }),
      href: PAGES.adminOutbox,
    },
  ].filter((figure) => figure !== false && figure !== undefined);
}

export async function Dashboard({ view }: { view: DashboardView }) {
  const [t, format] = [await getTranslations("Dashboard"), await getFormatter()];
  const number = (value: number) => format.number(value);
  const total = (key: "succeeded" | "failed" | "locked") => view.signIns.reduce((sum, hour) => sum + hour[key], 0);
  const figures = figuresOf(view, t, number, total);
  const dayOf = (date: Date) =>
    format.dateTime(date, { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });
  return (
    <section aria-labelledby="dashboard-heading" className="space-y-6" data-dashboard={view.scope.kind}>
      <div>
        <h2 id="dashboard-heading" className="text-lg font-semibold text-brand-800">
          {view.scope.kind === "platform"
            ? t("platformTitle")
            : t("companyTitle", { company: view.scope.company.name })}
        </h2>
        <p className="text-sm text-slate-700">{t("period", { days: view.days })}</p>
      </div>
      <ul className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-5">
        {figures.map((figure) => (
          <Figure key={figure.name} {...figure} />
        ))}
      </ul>
      <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <SignInChart
          id="sign-in-chart"
          hours={view.signIns}
          dayOf={dayOf}
          texts={{
            title: t("chartTitle"),
            summary: t("chartSummary", {
              succeeded: total("succeeded"),
              failed: total("failed"),
              locked: total("locked"),
            }),
            succeeded: t("succeeded"),
            failed: t("failed"),
            locked: t("locked"),
            table: t("asTable"),
            day: t("day"),
          }}
        />
      </div>
      <div className="grid gap-6 md:grid-cols-2">
        <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <BarList
            name="tokens"
            caption={t("tokensTitle")}
            label={t("grant")}
            countLabel={t("count")}
            empty={t("noTokens")}
            rows={view.tokensByGrant.map((row) => ({ key: row.grant, label: row.grant, count: row.count }))}
          />
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <BarList
            name="downloads"
            caption={t("downloadsTitle")}
            label={t("supplier")}
            countLabel={t("count")}
            empty={t("noDownloads")}
            rows={view.downloads.map((row) => ({ key: row.companyId, label: row.name, count: row.count }))}
          />
        </div>
      </div>
    </section>
  );
}
