import { FORMS, adminClientPage } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import { buttonSecondary } from "@/app/_components/ui";
import { ClientFormFields } from "./client-form-fields";

/**
 * Removing a client: a button, then (with ?remove=1) the question with cancel and confirm. The partner portal
 * (`portal`) sends it to its own form route and comes back to its page (`page`, with the query it needs).
 */
export async function ClientRemoval({
  clientId,
  csrf,
  asking,
  name = clientId,
  portal,
}: {
  clientId: string;
  csrf: string;
  asking: boolean;
  /** what the question calls the client: its id unless said otherwise */
  name?: string;
  portal?: { action: string; page: string; query: Record<string, string>; label: string };
}) {
  const t = await getTranslations("Admin");
  const page = portal ? `${portal.page}?${new URLSearchParams(portal.query)}` : adminClientPage(clientId);
  return (
    <section className="rounded-lg border border-red-200 bg-white p-5">
      {asking ? (
        <form method="post" action={portal?.action ?? FORMS.admin}>
          <ClientFormFields csrf={csrf} action="remove" clientId={clientId} />
          <p className="text-sm text-slate-800">{t("removeQuestion", { client: name })}</p>
          <div className="mt-3 flex flex-wrap gap-3">
            <a href={page} className={`${buttonSecondary} sm:w-auto`}>
              {t("cancel")}
            </a>
            <button
              type="submit"
              name="confirm"
              value="yes"
              className="inline-flex items-center justify-center rounded-md bg-red-700 px-4 py-2.5 text-sm font-semibold text-white hover:bg-red-800"
            >
              {t("confirmRemove")}
            </button>
          </div>
        </form>
      ) : (
        <form method="get" action={portal?.page}>
          {Object.entries(portal?.query ?? {}).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <button type="submit" name="remove" value="1" className={`${buttonSecondary} sm:w-auto`}>
            {portal?.label ?? t("removeClient")}
          </button>
        </form>
      )}
    </section>
  );
}
