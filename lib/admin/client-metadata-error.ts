/** A client registration that cannot be accepted, with its RFC 7591 §3.2.2 error code. */
import { OptiGateError } from "@/lib/errors/optigate-error";

export class ClientMetadataError extends OptiGateError<"invalid_client_metadata" | "invalid_redirect_uri"> {
  constructor(
    readonly code: "invalid_client_metadata" | "invalid_redirect_uri",
    message: string,
  ) {
    super(message);
  }
}
