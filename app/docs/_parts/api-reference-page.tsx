import { getLocale, getTranslations } from "next-intl/server";
import { ENDPOINTS } from "@/lib/http/paths";
import { ApiReference } from "./api-reference";
import { DocsHeader } from "./docs-header";

/** A page of an API's reference: the documentation's header, a link to the OpenAPI document, and Scalar's view of it. */
export async function ApiReferencePage(props: { page: string; document: string; api: "api" | "manage" }) {
  const [t, locale] = [await getTranslations("Docs"), await getLocale()];
  const intro = (
    <>
      {t(`${props.api}Intro`)}{" "}
      <a href={props.document} className="rounded text-brand-700 underline underline-offset-2 hover:text-brand-800">
        {t("document")}
      </a>
    </>
  );
  return (
    <div className="space-y-6">
      <DocsHeader current={props.page} title={`${props.api}Title`} intro={intro} />
      <ApiReference
        documentUrl={props.document}
        scriptUrl={ENDPOINTS.apiReferenceScript}
        locale={locale}
        texts={{ loading: t("loading"), failed: t("failed") }}
      />
    </div>
  );
}
