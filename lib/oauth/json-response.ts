/** JSON responses of the protocol endpoints: token responses are never cached; errors follow RFC 6749 §5.2. */
import { unavailableAnswer } from "@/lib/http/error-answers";
import { RequestBodyError } from "@/lib/http/form-body";
import { webResponse, type ProtocolResponse } from "@/lib/http/protocol-message";
import { logger } from "@/lib/observability/logger";
import { grantLabel, metrics } from "@/lib/observability/metrics";
import { currentRequest } from "@/lib/observability/request-context";
import { OAuthError } from "@/lib/oauth/errors";

export const NO_STORE_HEADERS = { "Cache-Control": "no-store", Pragma: "no-cache" };

export function noStoreBody(body: unknown, status = 200, headers: Record<string, string> = {}): ProtocolResponse {
  return {
    status,
    headers: { "Content-Type": "application/json", ...NO_STORE_HEADERS, ...headers },
    body: JSON.stringify(body),
  };
}

export function noStoreJson(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return webResponse(noStoreBody(body, status, headers));
}

/** Counts an error response: by code, and at the token endpoint with the grant asked for. */
function counted(code: string, response: ProtocolResponse): ProtocolResponse {
  metrics.protocolErrors.inc({ error: code });
  const request = currentRequest();
  if (request?.endpoint === "/connect/token")
    metrics.tokenRequests.inc({ grant: grantLabel(request.grantType), result: code });
  return response;
}

/** Turns any error into an OAuth error response; unexpected ones become server_error and are logged. */
export function oauthErrorResponse(error: unknown, options: { basicAuthentication?: boolean } = {}): ProtocolResponse {
  if (error instanceof RequestBodyError)
    return counted(
      "invalid_request",
      noStoreBody({ error: "invalid_request", error_description: error.message }, error.status),
    );
  const unavailable =
    !(error instanceof OAuthError) &&
    unavailableAnswer("protocol endpoint", error, (message, headers) =>
      noStoreBody({ error: "temporarily_unavailable", error_description: message }, 503, headers),
    );
  if (unavailable) return counted("temporarily_unavailable", unavailable);
  if (!(error instanceof OAuthError)) {
    logger.error({ err: error }, "unexpected error in a protocol endpoint");
    return counted(
      "server_error",
      noStoreBody({ error: "server_error", error_description: "an unexpected error occurred" }, 500),
    );
  }
  // What the caller must not learn goes to the log only.
  if (error.detail)
    logger.info({ error: error.code, description: error.description, detail: error.detail }, "protocol error");
  const headers: Record<string, string> = {};
  if (error.code === "invalid_client" && options.basicAuthentication)
    headers["WWW-Authenticate"] = 'Basic realm="OptiGate", charset="UTF-8"';
  return counted(
    error.code,
    noStoreBody({ error: error.code, error_description: error.description }, error.status, headers),
  );
}
