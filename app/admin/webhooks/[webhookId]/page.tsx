import { FORMS, PAGES, adminWebhookPage } from "@/lib/http/paths";
import { notFound } from "next/navigation";
import { getFormatter, getTranslations } from "next-intl/server";
import { operatorWebhookView } from "@/lib/rights/webhook-pages";
import { pageCsrfToken } from "@/lib/pages/page-csrf";
import { pageData } from "@/lib/pages/page-data";
import { decodedSegment } from "@/lib/pages/path-segments";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { adminWebhookOutcome } from "@/lib/pages/shown-once";
import { DeliveryLog } from "@/app/_components/webhooks/delivery-log";
import { NewWebhookSecret } from "@/app/_components/webhooks/new-webhook-secret";
import { WebhookChangeForm } from "@/app/_components/webhooks/webhook-change-form";
import { WebhookOutcome } from "@/app/_components/webhooks/webhook-problem";
import { WebhookState } from "@/app/_components/webhooks/webhook-state";
import { WebhookSwitches } from "@/app/_components/webhooks/webhook-switches";
import { WebhookRemoval } from "./webhook-removal";

export const dynamic = "force-dynamic";

const section = "space-y-3 rounded-lg border border-slate-200 bg-white p-5";

/** One webhook endpoint: its state and switches, a secret made just now, its settings, its delivery log, removal. */
export default async function AdminWebhookPage({
  params,
  searchParams,
}: {
  params: Promise<{ webhookId: string }>;
  searchParams: SearchParams;
}) {
  const id = decodedSegment((await params).webhookId);
  const query = await searchParams;
  const older = single(query.older);
  const view =
    id === undefined
      ? undefined
      : await pageData(adminWebhookPage(id), (actor) => operatorWebhookView(actor, id, older));
  if (!view) notFound();
  const { endpoint, log, events } = view;
  const [t, format] = [await getTranslations("Webhooks"), await getFormatter()];
  const forms = { action: FORMS.admin, csrf: await pageCsrfToken() };
  const found = await adminWebhookOutcome();
  const outcome = found?.endpointId === endpoint.id ? found : undefined;
  const changeRefused = outcome?.action === "webhook-change" && outcome.problem ? outcome : undefined;
  const page = adminWebhookPage(endpoint.id);
  return (
    <div className="space-y-6">
      <a href={PAGES.adminWebhooks} className="text-sm text-brand-700 underline underline-offset-2">
        ← {t("back")}
      </a>
      <div>
        <h1 className="text-2xl font-semibold break-all text-brand-800">{endpoint.url}</h1>
        {endpoint.description ? <p className="mt-1 break-words text-slate-700">{endpoint.description}</p> : null}
        <p className="mt-1 text-sm text-slate-600">
          {endpoint.companyId ? t("ofCompany", { company: endpoint.companyId }) : t("ofPlatform")}{" "}
          {t("created", { date: format.dateTime(endpoint.createdAt, { dateStyle: "medium" }) })}
        </p>
      </div>
      {changeRefused ? null : <WebhookOutcome outcome={outcome} />}
      {outcome?.secret ? <NewWebhookSecret secret={outcome.secret} /> : null}
      <section className={section} aria-labelledby="webhook-state-title">
        <h2 id="webhook-state-title" className="text-lg font-semibold text-slate-900">
          {t("state")}
        </h2>
        <WebhookState endpoint={endpoint} />
        <WebhookSwitches endpoint={endpoint} forms={forms} />
      </section>
      <section className={section} aria-labelledby="webhook-change-title">
        <h2 id="webhook-change-title" className="text-lg font-semibold text-slate-900">
          {t("changeTitle")}
        </h2>
        <WebhookChangeForm forms={forms} endpoint={endpoint} events={events} refused={changeRefused} />
      </section>
      <section id="deliveries" className={section} aria-labelledby="webhook-log-title">
        <h2 id="webhook-log-title" className="text-lg font-semibold text-slate-900">
          {t("log.title")}
        </h2>
        <DeliveryLog
          log={log}
          forms={forms}
          replayable={endpoint.enabled}
          olderHref={log.older ? `${page}?${new URLSearchParams({ older: log.older })}#deliveries` : undefined}
          newestHref={`${page}#deliveries`}
        />
      </section>
      <div id="remove">
        <WebhookRemoval endpoint={endpoint} forms={forms} asking={Boolean(single(query.remove))} />
      </div>
    </div>
  );
}
