/** Whether an endpoint is on, and if not why (OptiGate's reason is English), and since when its deliveries fail. */
import { getFormatter, getTranslations } from "next-intl/server";
import type { WebhookView } from "@/lib/rights/webhook-pages";

export async function WebhookState({ endpoint }: { endpoint: WebhookView }) {
  const [t, format] = [await getTranslations("Webhooks"), await getFormatter()];
  const when = (date: Date) => format.dateTime(date, { dateStyle: "medium", timeStyle: "short" });
  const badge = endpoint.enabled
    ? "bg-green-50 text-green-900 ring-green-200"
    : "bg-slate-100 text-slate-800 ring-slate-300";
  return (
    <span className="inline-block max-w-full">
      <span
        data-state={endpoint.enabled ? "on" : "off"}
        className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ${badge}`}
      >
        {endpoint.enabled ? t("enabled") : t("disabled")}
      </span>
      {!endpoint.enabled && endpoint.disabledReason ? (
        <span className="mt-1 block text-xs text-slate-700">
          {t("disabledBy")}{" "}
          <span lang="en" className="break-words">
            {endpoint.disabledReason}
          </span>
        </span>
      ) : null}
      {endpoint.failingSince ? (
        <span className="mt-1 block text-xs font-medium text-red-800">
          {t("failingSince", { date: when(endpoint.failingSince) })}
        </span>
      ) : null}
    </span>
  );
}
