import { FORMS } from "@/lib/http/paths";
import type { ReactNode } from "react";
import { getTranslations } from "next-intl/server";
import { buttonPrimary } from "@/app/_components/ui";
import { invalidInput, LabelledField } from "@/app/_components/labelled-field";
import { ClientFormFields } from "./client-form-fields";

/**
 * The client's registration as client metadata in JSON, to edit; a refused edit comes back as it was typed. The
 * operator's page sends it to its own form route; the partner portal (`portal`) to its own, with its own hint.
 */
export async function MetadataEdit({
  clientId,
  csrf,
  text,
  error,
  portal,
}: {
  clientId: string;
  csrf: string;
  text: string;
  error?: ReactNode;
  portal?: { action: string; inputId: string; title: string; hint: string };
}) {
  const t = await getTranslations("Admin");
  const inputId = portal?.inputId ?? "metadata";
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-5">
      <h2 className="text-lg font-semibold text-slate-900">{portal?.title ?? t("editMetadata")}</h2>
      <form method="post" action={portal?.action ?? FORMS.admin} className="mt-3 space-y-3">
        <ClientFormFields csrf={csrf} action="update" clientId={clientId} />
        <LabelledField id={inputId} label={t("metadata")} hint={portal?.hint ?? t("metadataHint")} error={error}>
          {(aria) => (
            <textarea
              id={inputId}
              name="metadata"
              rows={14}
              defaultValue={text}
              className={`block w-full rounded-md border border-slate-400 px-3 py-2 font-mono text-sm text-slate-900 ${invalidInput}`}
              {...aria}
            />
          )}
        </LabelledField>
        <button type="submit" className={`${buttonPrimary} sm:w-auto`}>
          {t("saveButton")}
        </button>
      </form>
    </section>
  );
}
