import { PAGES } from "@/lib/http/paths";
import { ApiReferencePage } from "../_parts/api-reference-page";
import { docsMetadata } from "../_parts/docs-header";

export const generateMetadata = () => docsMetadata("manageTitle");

/** The management API's reference, from the document its router serves. */
export default function ManagementApiPage() {
  return <ApiReferencePage page={PAGES.manageDocs} document="/manage/v1/openapi.json" api="manage" />;
}
