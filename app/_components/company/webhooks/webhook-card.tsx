/**
 * One of the company's webhook endpoints on the company page: its address, description, events and state, a secret
 * made just now (shown this once), its switches, its settings and its delivery log behind disclosures, and removal
 * behind a confirmation. What the last form did to it shows here.
 */
import { PAGES } from "@/lib/http/paths";
import { getFormatter, getTranslations } from "next-intl/server";
import type { WebhookFormOutcome } from "@/lib/forms/webhook-form";
import type { WebhookPanel } from "@/lib/rights/webhook-pages";
import { DeliveryLog } from "@/app/_components/webhooks/delivery-log";
import { NewWebhookSecret } from "@/app/_components/webhooks/new-webhook-secret";
import { WebhookChangeForm } from "@/app/_components/webhooks/webhook-change-form";
import { WebhookHiddenFields, type WebhookForms } from "@/app/_components/webhooks/webhook-form-fields";
import { WebhookOutcome } from "@/app/_components/webhooks/webhook-problem";
import { WebhookState } from "@/app/_components/webhooks/webhook-state";
import { WebhookSwitches } from "@/app/_components/webhooks/webhook-switches";

const summary = "cursor-pointer py-1 text-sm font-semibold text-brand-800";

export async function WebhookCard({
  panel: { endpoint, log },
  events,
  forms,
  outcome,
}: {
  panel: WebhookPanel;
  events: readonly string[];
  forms: WebhookForms;
  /** the last form's outcome, when it concerned this endpoint */
  outcome?: WebhookFormOutcome;
}) {
  const [t, format] = [await getTranslations("Webhooks"), await getFormatter()];
  const changeRefused = outcome?.action === "webhook-change" && outcome.problem ? outcome : undefined;
  const anchor = `webhook-${endpoint.id}`;
  const olderHref = log.older
    ? `${PAGES.company}?${new URLSearchParams({ webhook: endpoint.id, older: log.older })}#${anchor}`
    : undefined;
  return (
    <li
      id={anchor}
      data-webhook-endpoint={endpoint.id}
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-5"
    >
      <div>
        <h3 className="text-base font-semibold break-all text-slate-900">{endpoint.url}</h3>
        {endpoint.description ? <p className="text-sm break-words text-slate-700">{endpoint.description}</p> : null}
        <p className="text-xs text-slate-600">
          {t("created", { date: format.dateTime(endpoint.createdAt, { dateStyle: "medium" }) })}
        </p>
      </div>
      {changeRefused ? null : <WebhookOutcome outcome={outcome} />}
      {outcome?.secret ? <NewWebhookSecret secret={outcome.secret} /> : null}
      <dl className="space-y-2 text-sm">
        <div className="flex flex-wrap items-start gap-2">
          <dt className="font-medium text-slate-700">{t("stateLabel")}</dt>
          <dd className="min-w-0">
            <WebhookState endpoint={endpoint} />
          </dd>
        </div>
        <div>
          <dt className="font-medium text-slate-700">{t("eventsLabel")}</dt>
          <dd>
            <ul className="mt-1 flex flex-wrap gap-1">
              {endpoint.events.map((event) => (
                <li key={event}>
                  <code className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-800">{event}</code>
                </li>
              ))}
            </ul>
          </dd>
        </div>
      </dl>
      <WebhookSwitches endpoint={endpoint} forms={forms} />
      <details open={Boolean(changeRefused)} className="border-t border-slate-200 pt-2">
        <summary className={summary}>{t("change")}</summary>
        <div className="mt-2">
          <WebhookChangeForm forms={forms} endpoint={endpoint} events={events} refused={changeRefused} />
        </div>
      </details>
      <details open={log.paged || outcome?.action === "webhook-replay"} className="border-t border-slate-200 pt-2">
        <summary className={summary}>{t("log.title")}</summary>
        <div className="mt-2">
          <DeliveryLog
            log={log}
            forms={forms}
            replayable={endpoint.enabled}
            olderHref={olderHref}
            newestHref={`${PAGES.company}#${anchor}`}
          />
        </div>
      </details>
      <details className="border-t border-slate-200 pt-2 text-sm">
        <summary className="cursor-pointer py-1 font-semibold text-red-800">{t("remove")}</summary>
        <form method="post" action={forms.action} className="mt-1 space-y-2">
          <WebhookHiddenFields forms={forms} action="webhook-remove" endpointId={endpoint.id} />
          <p className="break-words text-slate-800">{t("removeQuestion", { url: endpoint.url })}</p>
          <button
            type="submit"
            className="rounded-md bg-red-700 px-2.5 py-1 text-xs font-semibold text-white hover:bg-red-800"
          >
            {t("confirmRemove")}
          </button>
        </form>
      </details>
    </li>
  );
}
