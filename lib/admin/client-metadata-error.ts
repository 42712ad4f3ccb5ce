/** A client registration that cannot be accepted, with its RFC 7591 §3.2.2 error code. */
export class ClientMetadataError extends Error {
  constructor(
    readonly error: "invalid_client_metadata" | "invalid_redirect_uri",
    message: string,
  ) {
    super(message);
    this.name = "ClientMetadataError";
  }
}
