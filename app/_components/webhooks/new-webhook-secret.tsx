/** An endpoint's signing secret (whsec_…), made just now and shown this once, with a button that copies it. */
import { getTranslations } from "next-intl/server";
import { CopyButton } from "@/app/_components/copy-button";

export async function NewWebhookSecret({ secret }: { secret: string }) {
  const t = await getTranslations("Webhooks");
  return (
    <div role="status" className="rounded-md border border-green-300 bg-green-50 p-3 text-sm text-green-900">
      <p className="font-medium">{t("newSecret")}</p>
      <div className="mt-2 flex flex-col items-start gap-2 sm:flex-row sm:items-center">
        <code
          data-new-secret
          className="block w-full min-w-0 flex-1 rounded bg-white px-3 py-2 font-mono break-all select-all"
        >
          {secret}
        </code>
        <CopyButton text={secret} label={t("copy")} copied={t("copied")} failed={t("copyFailed")} />
      </div>
    </div>
  );
}
