import { FORMS, PAGES, adminWebhookPage } from "@/lib/http/paths";
import { getFormatter, getTranslations } from "next-intl/server";
import { platformWebhooksView } from "@/lib/rights/webhook-pages";
import { pageCsrfToken } from "@/lib/pages/page-csrf";
import { pageData } from "@/lib/pages/page-data";
import { adminWebhookOutcome } from "@/lib/pages/shown-once";
import { DataCell, DataRow, DataTable, Identifier } from "@/app/_components/data-table";
import { NewWebhookForm } from "@/app/_components/webhooks/new-webhook-form";
import { WebhookOutcome } from "@/app/_components/webhooks/webhook-problem";
import { WebhookState } from "@/app/_components/webhooks/webhook-state";

export const dynamic = "force-dynamic";

/** The platform's webhook endpoints, which get every company's events, and the form that adds one. */
export default async function AdminWebhooksPage() {
  const view = await pageData(PAGES.adminWebhooks, platformWebhooksView);
  const [t, format] = [await getTranslations("Webhooks"), await getFormatter()];
  const forms = { action: FORMS.admin, csrf: await pageCsrfToken() };
  const outcome = await adminWebhookOutcome();
  const addRefused = outcome?.action === "webhook-add" && outcome.problem ? outcome : undefined;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-brand-800">{t("adminTitle")}</h1>
        <p className="mt-1 text-slate-700">{t("adminIntro")}</p>
        <p className="mt-1 text-sm text-slate-600">{t("howItWorks")}</p>
      </div>
      {addRefused ? null : <WebhookOutcome outcome={outcome} />}
      {view.endpoints.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-600">{t("none")}</p>
      ) : (
        <div className="rounded-lg border border-slate-200 bg-white">
          <DataTable columns={[t("endpoint"), t("eventsColumn"), t("state"), t("added")]}>
            {view.endpoints.map((endpoint) => (
              <DataRow key={endpoint.id} data-webhook-endpoint={endpoint.id}>
                <DataCell className="sm:max-w-md">
                  <a
                    href={adminWebhookPage(endpoint.id)}
                    className="font-medium text-brand-700 underline underline-offset-2"
                  >
                    <Identifier value={endpoint.url} />
                  </a>
                  {endpoint.description ? (
                    <span className="block break-words text-slate-600">{endpoint.description}</span>
                  ) : null}
                </DataCell>
                <DataCell label={t("eventsLabel")}>
                  <ul className="flex flex-wrap gap-1">
                    {endpoint.events.map((event) => (
                      <li key={event}>
                        <code className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-800">{event}</code>
                      </li>
                    ))}
                  </ul>
                </DataCell>
                <DataCell label={t("stateLabel")}>
                  <WebhookState endpoint={endpoint} />
                </DataCell>
                <DataCell label={t("addedLabel")}>
                  {format.dateTime(endpoint.createdAt, { dateStyle: "medium" })}
                </DataCell>
              </DataRow>
            ))}
          </DataTable>
        </div>
      )}
      <NewWebhookForm forms={forms} events={view.events} refused={addRefused} />
    </div>
  );
}
