/** What a relying party must know of its registration at OptiGate, each value selectable as it is to be typed. */
import type { ReactNode } from "react";
import { getTranslations } from "next-intl/server";
import type { PartnerQuickStart } from "@/lib/rights/partner-quick-start";

function Values({ values, none }: { values: string[]; none: string }) {
  if (values.length === 0) return <span className="text-slate-600">{none}</span>;
  return (
    <ul className="space-y-1">
      {values.map((value) => (
        <li key={value}>
          <code className="break-all select-all">{value}</code>
        </li>
      ))}
    </ul>
  );
}

export async function ApplicationFacts({ view }: { view: PartnerQuickStart }) {
  const [t, developer, admin] = await Promise.all([
    getTranslations("QuickStart"),
    getTranslations("Developer"),
    getTranslations("Admin"),
  ]);
  const { client } = view;
  const facts: [string, ReactNode][] = [
    [t("issuer"), <Values key="issuer" values={[view.issuer]} none="" />],
    [t("discoveryUrl"), <Values key="discovery" values={[view.discoveryUrl]} none="" />],
    [t("clientId"), <Values key="client" values={[client.id]} none="" />],
    [t("kind"), admin(`kinds.${client.kind}.name`)],
    [
      t("status"),
      <span key="status" data-status={view.status}>
        {developer(`statuses.${view.status}`)}
        {view.changeWaiting ? <span className="block text-sm text-slate-600">{developer("changeWaiting")}</span> : null}
      </span>,
    ],
    [t("redirectUris"), <Values key="redirect" values={client.redirectUris} none={t("none")} />],
    [t("postLogoutRedirectUris"), <Values key="logout" values={client.postLogoutRedirectUris} none={t("none")} />],
    [t("scopes"), <Values key="scopes" values={client.allowedScopes} none={t("none")} />],
  ];
  return (
    <section aria-labelledby="facts-title" className="rounded-lg border border-slate-200 bg-white p-5">
      <h2 id="facts-title" className="text-lg font-semibold text-slate-900">
        {t("factsTitle")}
      </h2>
      <dl className="mt-3 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[max-content_1fr]">
        {facts.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="font-medium text-slate-700">{term}</dt>
            <dd className="text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
