/**
 * How an error becomes an answer, one serializer per surface: OAuth JSON (RFC 6749 §5.2, 401 with a Basic challenge
 * for invalid_client after HTTP Basic), problem details for the platform API (RFC 9457), plain text with the legacy service's
 * status codes for the catalog services, and plain text for whatever escapes any other route. The authorization
 * endpoint's redirect carries its errors only to a verified redirect URI (lib/oauth/authorize/authorization-response.ts)
 * and pages show the localized error page (lib/i18n/error-page.ts). An unreachable database takes one path
 * everywhere: one log line, 503, Retry-After. Anything else unexpected is logged with its cause and answered without
 * internals; a protocol error's private detail goes to the log only.
 */
import { ENDPOINTS } from "@/lib/http/paths";
import { ApiProblem, PROBLEM_TYPES, problemTypeUri } from "@/lib/errors/api-problem";
import { CatalogServiceError } from "@/lib/errors/catalog-service-error";
import { DpopNonceError, OAuthError, ProofOfWorkRequired } from "@/lib/errors/oauth-error";
import { isDatabaseUnavailable, logDatabaseUnavailable } from "@/lib/errors/database-unavailable";
import { BodyTooLargeError, NulCharacterError, RequestBodyError } from "@/lib/http/form-body";
import { noStoreBody } from "@/lib/http/no-store-json";
import type { ProtocolResponse } from "@/lib/http/protocol-message";
import { logger } from "@/lib/observability/logger";
import { grantLabel, metrics } from "@/lib/observability/metrics";
import { currentRequest } from "@/lib/observability/request-context";

const UNAVAILABLE_MESSAGE = "The service cannot reach its database just now. Please try again shortly.";
const RETRY_AFTER = { "Retry-After": "5" };

/**
 * When `error` says the database cannot be reached: its one log line, and the surface's 503 answer as `format`
 * makes it from the shared message and headers. Undefined for any other error.
 */
function unavailableAnswer<Answer>(
  where: string,
  error: unknown,
  format: (message: string, headers: Record<string, string>) => Answer,
): Answer | undefined {
  if (!isDatabaseUnavailable(error)) return undefined;
  logDatabaseUnavailable(where, error);
  return format(UNAVAILABLE_MESSAGE, RETRY_AFTER);
}

/** An API problem as its RFC 9457 body, with the headers it carries (a Bearer challenge, Allow, Retry-After). */
export function problemAnswer(problem: ApiProblem): Response {
  const [status, title] = PROBLEM_TYPES[problem.code];
  const body = { type: problemTypeUri(problem.code), title, status, detail: problem.detail };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/problem+json", "Cache-Control": "no-store", ...problem.headers },
  });
}

/** What escaped an API route that is not a problem: 503 when the database is away, otherwise a logged 500. */
export function apiFailureAnswer(error: unknown, method: string, path: string): Response {
  const unavailable = unavailableAnswer(`${method} ${path}`, error, (message, headers) =>
    problemAnswer(new ApiProblem("service-unavailable", message, headers)),
  );
  if (unavailable) return unavailable;
  logger.error({ err: error, method, path }, "API request failed");
  return problemAnswer(new ApiProblem("server-error", "The request could not be carried out. Please try again later."));
}

export interface PlainAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

export const plainAnswer = (status: number, text: string, headers: Record<string, string> = {}): PlainAnswer => ({
  status,
  headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers },
  text: `${text}\n`,
});

/** What escaped any route, as plain text; "nul" when the caller sent U+0000, which the API refuses in its own form. */
export function plainFailureAnswer(error: unknown, method: string, path: string): PlainAnswer | "nul" {
  if (error instanceof NulCharacterError) return "nul";
  if (error instanceof BodyTooLargeError)
    return plainAnswer(413, `The request body is too large (at most ${error.limit} bytes).`);
  if (error instanceof RequestBodyError) return plainAnswer(error.status, "The request body did not arrive in full.");
  const unavailable = unavailableAnswer(`${method} ${path}`, error, (message, headers) =>
    plainAnswer(503, message, headers),
  );
  if (unavailable) return unavailable;
  logger.error({ err: error, method, path }, "request failed");
  return plainAnswer(500, "Something went wrong on our side. Please try again later.");
}

/** Counts an error response: by code, and at the token endpoint with the grant asked for. */
function counted(code: string, response: ProtocolResponse): ProtocolResponse {
  metrics.protocolErrors.inc({ error: code });
  const request = currentRequest();
  if (request?.endpoint === ENDPOINTS.token)
    metrics.tokenRequests.inc({ grant: grantLabel(request.grantType), result: code });
  return response;
}

/** Any error as an OAuth error answer (RFC 6749 §5.2); unexpected ones become server_error and are logged. */
export function oauthErrorAnswer(error: unknown, options: { basicAuthentication?: boolean } = {}): ProtocolResponse {
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
  if (error instanceof DpopNonceError) headers["DPoP-Nonce"] = error.nonce;
  const challenge = error instanceof ProofOfWorkRequired ? { proof_of_work_challenge: error.challenge } : {};
  return counted(
    error.code,
    noStoreBody({ error: error.code, error_description: error.description, ...challenge }, error.status, headers),
  );
}

/** A catalog service's refusal: its message as plain text, with the status code the legacy service gives it. */
export const catalogErrorAnswer = (error: CatalogServiceError): Response =>
  new Response(`${error.message}\n`, {
    status: error.status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
