/** Changing or removing one of the vendor's applications on the partner portal, with the operator's own forms. */
import { FORMS, PAGES } from "@/lib/http/paths";
import type { ReactNode } from "react";
import { getTranslations } from "next-intl/server";
import { ClientRemoval } from "@/app/admin/clients/[clientId]/client-removal";
import { MetadataEdit } from "@/app/admin/clients/[clientId]/metadata-edit";

export async function ApplicationChange({
  clientId,
  name,
  text,
  csrf,
  asking,
  error,
}: {
  clientId: string;
  name: string;
  /** the metadata as JSON text: the registration, the change waiting, or what was typed into a refused form */
  text: string;
  csrf: string;
  asking: boolean;
  error?: ReactNode;
}) {
  const t = await getTranslations("Developer");
  return (
    <div id="change" className="space-y-4">
      <MetadataEdit
        clientId={clientId}
        csrf={csrf}
        text={text}
        error={error}
        portal={{
          action: FORMS.developer,
          inputId: "change-metadata",
          title: t("changeTitle", { client: name }),
          hint: t("changeHint"),
        }}
      />
      <ClientRemoval
        clientId={clientId}
        csrf={csrf}
        asking={asking}
        name={name}
        portal={{
          action: FORMS.developer,
          page: PAGES.developer,
          query: { edit: clientId },
          label: t("removeApplication"),
        }}
      />
    </div>
  );
}
