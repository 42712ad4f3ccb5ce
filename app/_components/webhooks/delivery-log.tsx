/**
 * An endpoint's delivery log, newest first and a page at a time: each delivery's event, webhook-id, state with its
 * attempts and last answer (an HTTP status, or why none came, in English), its times, its body, and a button that
 * sends it again with the same webhook-id. On a phone each row becomes a card.
 */
import { getFormatter, getTranslations } from "next-intl/server";
import type { DeliveryLogPage, WebhookDelivery } from "@/lib/rights/webhook-pages";
import { DataActions, DataCell, DataRow, DataTable, Identifier } from "@/app/_components/data-table";
import { eventKey } from "@/app/_components/webhooks/webhook-fields";
import {
  smallWebhookButton,
  WebhookButtonForm,
  type WebhookForms,
} from "@/app/_components/webhooks/webhook-form-fields";

const STATUS_STYLE: Record<WebhookDelivery["status"], string> = {
  queued: "bg-amber-50 text-amber-900 ring-amber-200",
  delivered: "bg-green-50 text-green-900 ring-green-200",
  failed: "bg-red-50 text-red-800 ring-red-200",
};

/** The body as sent, indented for reading; as it is when it is no JSON. */
function readable(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

async function DeliveryRow({
  delivery,
  forms,
  replayable,
}: {
  delivery: WebhookDelivery;
  forms: WebhookForms;
  replayable: boolean;
}) {
  const [t, events, format] = [
    await getTranslations("Webhooks.log"),
    await getTranslations("Webhooks.events"),
    await getFormatter(),
  ];
  const when = (date: Date) => format.dateTime(date, { dateStyle: "medium", timeStyle: "medium" });
  return (
    <DataRow data-delivery={delivery.id} data-status={delivery.status}>
      <DataCell className="sm:max-w-56">
        <Identifier value={delivery.eventType} className="font-mono font-semibold text-slate-900" />
        <span className="block text-xs text-slate-600">{events(eventKey(delivery.eventType))}</span>
        <details className="mt-1 text-xs">
          <summary className="cursor-pointer text-brand-700 underline">{t("body")}</summary>
          <pre className="mt-1 max-w-full overflow-x-auto rounded bg-slate-50 p-2 whitespace-pre-wrap break-all text-slate-900">
            {readable(delivery.payload)}
          </pre>
        </details>
      </DataCell>
      <DataCell label={t("idLabel")}>
        <Identifier value={delivery.id} className="font-mono text-xs" />
      </DataCell>
      <DataCell label={t("statusLabel")}>
        <span
          className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ${STATUS_STYLE[delivery.status]}`}
        >
          {t(`statuses.${delivery.status}`)}
        </span>
        <span className="block text-xs text-slate-700">{t("attempts", { count: delivery.attempts })}</span>
        {delivery.lastStatus !== null ? (
          <span className="block text-xs text-slate-700">{t("lastStatus", { status: delivery.lastStatus })}</span>
        ) : null}
        {delivery.lastError ? (
          <span lang="en" className="block text-xs break-words text-red-800">
            {delivery.lastError}
          </span>
        ) : null}
      </DataCell>
      <DataCell label={t("timesLabel")} className="text-xs text-slate-700">
        <span className="block">{t("createdAt", { date: when(delivery.createdAt) })}</span>
        {delivery.lastAttemptAt ? (
          <span className="block">{t("lastAttemptAt", { date: when(delivery.lastAttemptAt) })}</span>
        ) : null}
        {delivery.deliveredAt ? (
          <span className="block">{t("deliveredAt", { date: when(delivery.deliveredAt) })}</span>
        ) : null}
      </DataCell>
      <DataActions>
        {replayable && delivery.status !== "queued" ? (
          <WebhookButtonForm
            forms={forms}
            action="webhook-replay"
            endpointId={delivery.endpointId}
            extra={{ delivery_id: delivery.id }}
          >
            <button type="submit" className={smallWebhookButton} aria-label={t("replayNamed", { id: delivery.id })}>
              {t("replay")}
            </button>
          </WebhookButtonForm>
        ) : null}
      </DataActions>
    </DataRow>
  );
}

export async function DeliveryLog({
  log,
  forms,
  replayable,
  olderHref,
  newestHref,
}: {
  log: DeliveryLogPage;
  forms: WebhookForms;
  /** whether the endpoint is on: only then can a delivery be sent again */
  replayable: boolean;
  /** the link to the next, older page, when there is one */
  olderHref?: string;
  /** the link back to the newest page, shown on later pages */
  newestHref: string;
}) {
  const t = await getTranslations("Webhooks.log");
  const link = "text-sm font-medium text-brand-700 underline underline-offset-2";
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600">{replayable ? t("intro") : t("introOff")}</p>
      {log.deliveries.length === 0 ? (
        <p className="rounded-md border border-dashed border-slate-300 p-4 text-sm text-slate-700">
          {log.paged ? t("noOlder") : t("none")}
        </p>
      ) : (
        <div className="rounded-lg border border-slate-200">
          <DataTable
            columns={[t("event"), t("id"), t("status"), t("times"), <span className="sr-only">{t("replay")}</span>]}
          >
            {log.deliveries.map((delivery) => (
              <DeliveryRow key={delivery.id} delivery={delivery} forms={forms} replayable={replayable} />
            ))}
          </DataTable>
        </div>
      )}
      {log.paged || olderHref ? (
        <nav aria-label={t("pages")} className="flex flex-wrap gap-4">
          {log.paged ? (
            <a href={newestHref} className={link}>
              {t("newest")}
            </a>
          ) : null}
          {olderHref ? (
            <a href={olderHref} className={link} rel="next">
              {t("older")}
            </a>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}
