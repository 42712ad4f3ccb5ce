/** An endpoint's signing secret (whsec_…), made just now and shown this once, with a button that copies it. */
import { getTranslations } from "next-intl/server";
import { NewSecret } from "@/app/_components/new-secret";

export async function NewWebhookSecret({ secret }: { secret: string }) {
  const t = await getTranslations("Webhooks");
  const labels = { copy: t("copy"), copied: t("copied"), failed: t("copyFailed") };
  return <NewSecret title={t("newSecret")} secret={secret} labels={labels} />;
}
