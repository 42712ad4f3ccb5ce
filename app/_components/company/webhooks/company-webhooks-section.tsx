/**
 * The webhook section of /portal/company, for the company's administrators: the company's own endpoints, which get
 * their company's events only, each with its delivery log, and the form that adds one. What the last form did shows
 * at the endpoint it concerned, or above the list when that endpoint is gone.
 */
import { FORMS } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import type { WebhookFormOutcome } from "@/lib/forms/webhook-form";
import type { WebhookPanel } from "@/lib/rights/webhook-pages";
import { NewWebhookForm } from "@/app/_components/webhooks/new-webhook-form";
import { WebhookOutcome } from "@/app/_components/webhooks/webhook-problem";
import { WebhookCard } from "@/app/_components/company/webhooks/webhook-card";

export async function CompanyWebhooksSection({
  view,
  outcome,
  csrf,
}: {
  view: { endpoints: WebhookPanel[]; events: readonly string[] };
  outcome?: WebhookFormOutcome;
  csrf: string;
}) {
  const t = await getTranslations("Webhooks");
  const forms = { action: FORMS.companyWebhooks, csrf };
  const atCard = (id: string) => (outcome?.endpointId === id ? outcome : undefined);
  const addRefused = outcome?.action === "webhook-add" && outcome.problem ? outcome : undefined;
  // Shown above the list: what concerned no endpoint that is still listed (a removal, an expired form).
  const general =
    outcome && !addRefused && !view.endpoints.some(({ endpoint }) => endpoint.id === outcome.endpointId)
      ? outcome
      : undefined;
  return (
    <section id="webhooks" aria-labelledby="webhooks-title" className="space-y-4">
      <div>
        <h2 id="webhooks-title" className="text-lg font-semibold text-brand-800">
          {t("companyTitle")}
        </h2>
        <p className="mt-1 text-sm text-slate-600">{t("companyIntro")}</p>
        <p className="mt-1 text-sm text-slate-600">{t("howItWorks")}</p>
      </div>
      <WebhookOutcome outcome={general} />
      {view.endpoints.length > 0 ? (
        <ul className="space-y-4">
          {view.endpoints.map((panel) => (
            <WebhookCard
              key={panel.endpoint.id}
              panel={panel}
              events={view.events}
              forms={forms}
              outcome={atCard(panel.endpoint.id)}
            />
          ))}
        </ul>
      ) : (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-5 text-sm text-slate-700">
          {t("none")}
        </p>
      )}
      <NewWebhookForm forms={forms} events={view.events} refused={addRefused} level={3} />
    </section>
  );
}
