import { getTranslations } from "next-intl/server";
import { CopyButton } from "@/app/_components/copy-button";

interface HandoverItem {
  label: string;
  value: string;
  /** Marks the secret for the page's tests and styles it as the one thing not shown again. */
  secret?: boolean;
}

/**
 * What the client's developer needs, after a registration or a new secret: each value selectable and with a copy
 * button, and all of them at once. The secret is here only this once.
 */
export async function DeveloperHandover({
  discoveryUrl,
  clientId,
  secret,
  publicClient,
  redirectUris,
  scopes,
}: {
  publicClient: boolean;
  discoveryUrl: string;
  clientId: string;
  secret?: string;
  redirectUris: string[];
  scopes: string[];
}) {
  const t = await getTranslations("Admin.handover");
  const copyTexts = { copied: t("copied"), failed: t("copyFailed") };
  const items: HandoverItem[] = [
    { label: t("discoveryUrl"), value: discoveryUrl },
    { label: t("clientId"), value: clientId },
    ...(secret ? [{ label: t("secret"), value: secret, secret: true }] : []),
    ...(redirectUris.length > 0 ? [{ label: t("redirectUris"), value: redirectUris.join("\n") }] : []),
    { label: t("scopes"), value: scopes.join(" ") },
  ];
  const all = items.map((item) => `${item.label}: ${item.value.replace(/\n/g, ", ")}`).join("\n");
  return (
    <section
      aria-labelledby="handover-title"
      data-handover
      className="rounded-lg border border-amber-300 bg-amber-50 p-4 sm:p-5"
    >
      <h2 id="handover-title" className="text-lg font-semibold text-amber-950">
        {t("title")}
      </h2>
      <p className="mt-1 text-sm text-amber-950">{t("intro")}</p>
      <p className="mt-2 text-sm font-semibold text-amber-950">
        {t(secret ? "secretOnce" : publicClient ? "noSecret" : "secretGone")}
      </p>
      <dl className="mt-3 space-y-3">
        {items.map((item) => (
          <div key={item.label}>
            <dt className="text-sm font-medium text-slate-800">{item.label}</dt>
            <dd className="mt-1 flex flex-col items-start gap-2 sm:flex-row sm:items-center">
              <code
                data-new-secret={item.secret ? true : undefined}
                className="block w-full min-w-0 flex-1 select-all whitespace-pre-wrap break-all rounded bg-white px-3 py-2 font-mono text-sm text-slate-900"
              >
                {item.value}
              </code>
              <CopyButton
                text={item.value}
                label={t("copy")}
                name={t("copyItem", { item: item.label })}
                {...copyTexts}
              />
            </dd>
          </div>
        ))}
      </dl>
      <div className="mt-4">
        <CopyButton text={all} label={t("copyAll")} {...copyTexts} />
      </div>
    </section>
  );
}
