import { adminWebhookPage } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import { buttonSecondary } from "@/app/_components/ui";
import { WebhookHiddenFields, type WebhookForms } from "@/app/_components/webhooks/webhook-form-fields";

/** Removing an endpoint: a button, then (with ?remove=1) the question with cancel and confirm, as for a client. */
export async function WebhookRemoval({
  endpoint,
  forms,
  asking,
}: {
  endpoint: { id: string; url: string };
  forms: WebhookForms;
  asking: boolean;
}) {
  const t = await getTranslations("Webhooks");
  return (
    <section className="rounded-lg border border-red-200 bg-white p-5">
      {asking ? (
        <form method="post" action={forms.action}>
          <WebhookHiddenFields forms={forms} action="webhook-remove" endpointId={endpoint.id} />
          <p className="text-sm break-words text-slate-800">{t("removeQuestion", { url: endpoint.url })}</p>
          <div className="mt-3 flex flex-wrap gap-3">
            <a href={adminWebhookPage(endpoint.id)} className={`${buttonSecondary} sm:w-auto`}>
              {t("cancel")}
            </a>
            <button
              type="submit"
              className="inline-flex items-center justify-center rounded-md bg-red-700 px-4 py-2.5 text-sm font-semibold text-white hover:bg-red-800"
            >
              {t("confirmRemove")}
            </button>
          </div>
        </form>
      ) : (
        <form method="get" action={`${adminWebhookPage(endpoint.id)}#remove`}>
          <button type="submit" name="remove" value="1" className={`${buttonSecondary} sm:w-auto`}>
            {t("removeEndpoint")}
          </button>
        </form>
      )}
    </section>
  );
}
