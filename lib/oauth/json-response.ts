/** JSON responses of the protocol endpoints: token responses are never cached; errors follow RFC 6749 §5.2. */
import { isDatabaseUnavailable, logDatabaseUnavailable } from "@/lib/db/database-errors";
import { RequestBodyError } from "@/lib/http/form-body";
import { OAuthError } from "@/lib/oauth/errors";

export const NO_STORE_HEADERS = { "Cache-Control": "no-store", Pragma: "no-cache" };

export function noStoreJson(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { ...NO_STORE_HEADERS, ...headers } });
}

/** Turns any error into an OAuth error response; unexpected ones become server_error and are logged. */
export function oauthErrorResponse(error: unknown, options: { basicAuthentication?: boolean } = {}): Response {
  if (error instanceof RequestBodyError) return noStoreJson({ error: "invalid_request", error_description: error.message }, error.status);
  if (!(error instanceof OAuthError) && isDatabaseUnavailable(error)) {
    logDatabaseUnavailable("protocol endpoint", error);
    return noStoreJson({ error: "temporarily_unavailable", error_description: "the database cannot be reached just now; try again shortly" }, 503, { "Retry-After": "5" });
  }
  if (!(error instanceof OAuthError)) {
    console.error("unexpected error in a protocol endpoint:", error);
    return noStoreJson({ error: "server_error", error_description: "an unexpected error occurred" }, 500);
  }
  const headers: Record<string, string> = {};
  if (error.code === "invalid_client" && options.basicAuthentication) headers["WWW-Authenticate"] = 'Basic realm="OptiGate", charset="UTF-8"';
  return noStoreJson({ error: error.code, error_description: error.description }, error.status, headers);
}
