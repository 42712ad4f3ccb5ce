/**
 * The API client section of /portal/company, for the company's administrators: the company's own clients of the
 * management API with their scopes and secrets, a new secret shown the one time it exists, and the form that creates
 * one. What the last form did, or why it was refused, shows where it belongs.
 */
import { getTranslations } from "next-intl/server";
import type { CompanyClientOutcome } from "@/lib/forms/company-client-submission";
import type { CompanyClientsView } from "@/lib/rights/company-clients";
import { Alert } from "@/app/_components/ui";
import { ApiClientCard } from "@/app/_components/company/clients/api-client-card";
import { NewApiClientForm } from "@/app/_components/company/clients/new-api-client-form";
import { clientProblemText } from "@/app/_components/company/clients/client-problem";

export async function CompanyClientsSection({
  view,
  outcome,
  csrf,
}: {
  view: CompanyClientsView;
  outcome?: CompanyClientOutcome;
  csrf: string;
}) {
  const t = await getTranslations("CompanyClients");
  const done = outcome && !outcome.problem && outcome.action ? outcome : undefined;
  // A refused create form shows its refusal at the form; the others above the list.
  const refusedHere = outcome?.problem && outcome.action !== "create" ? outcome : undefined;
  const shown = outcome?.secret && view.clients.some((client) => client.client_id === outcome.clientId);
  return (
    <section id="api-clients" aria-labelledby="api-clients-title" className="space-y-4">
      <div>
        <h2 id="api-clients-title" className="text-lg font-semibold text-brand-800">
          {t("title")}
        </h2>
        <p className="mt-1 text-sm text-slate-600">{t("intro")}</p>
        <p className="mt-1 text-sm text-slate-600">{t("howTo")}</p>
        <dl className="mt-2 space-y-1 text-sm">
          <div className="flex flex-wrap gap-2">
            <dt className="font-medium text-slate-700">{t("tokenUrl")}</dt>
            <dd>
              <code className="break-all text-slate-900">{view.tokenUrl}</code>
            </dd>
          </div>
          <div className="flex flex-wrap gap-2">
            <dt className="font-medium text-slate-700">{t("apiUrl")}</dt>
            <dd>
              <code className="break-all text-slate-900">{view.apiUrl}</code>
            </dd>
          </div>
        </dl>
      </div>
      {done ? (
        <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">
          {t(`done.${done.action}` as "done.create")}
        </p>
      ) : null}
      {refusedHere ? <Alert>{await clientProblemText(refusedHere)}</Alert> : null}
      {view.clients.length > 0 ? (
        <ul className="space-y-4">
          {view.clients.map((client) => (
            <ApiClientCard
              key={client.client_id}
              client={client}
              csrf={csrf}
              newSecret={shown && outcome?.clientId === client.client_id ? outcome.secret : undefined}
            />
          ))}
        </ul>
      ) : (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-5 text-sm text-slate-700">
          {t("none")}
        </p>
      )}
      <NewApiClientForm
        scopes={view.scopes}
        csrf={csrf}
        refused={outcome?.problem && outcome.action === "create" ? outcome : undefined}
      />
    </section>
  );
}
