/** A client registration that cannot be accepted, with its RFC 7591 §3.2.2 error code. */
import { OptiGateError } from "@/lib/errors/optigate-error";

/**
 * Which of a software vendor's own rules refused it (lib/admin/partner-applications.ts), and at which form field, so
 * that the portal's form says so in the page's language.
 */
export interface PartnerRuleRefusal {
  rule: "client_id_taken" | "scope_not_allowed" | "plain_http" | "resource_not_allowed";
  field: "client_id" | "scope" | "redirect_uris" | "post_logout_redirect_uris" | "allowed_resources";
  value: string;
}

export class ClientMetadataError extends OptiGateError<"invalid_client_metadata" | "invalid_redirect_uri"> {
  constructor(
    readonly code: "invalid_client_metadata" | "invalid_redirect_uri",
    message: string,
    readonly partnerRule?: PartnerRuleRefusal,
  ) {
    super(message);
  }
}
