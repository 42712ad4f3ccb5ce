import { PAGES } from "@/lib/http/paths";
import { ApiReferencePage } from "../_parts/api-reference-page";
import { docsMetadata } from "../_parts/docs-header";

export const generateMetadata = () => docsMetadata("apiTitle");

/** The platform API's reference, from the document its router serves. */
export default function PlatformApiPage() {
  return <ApiReferencePage page={PAGES.apiDocs} document="/v2/openapi.json" api="api" />;
}
