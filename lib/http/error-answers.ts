/**
 * How an error becomes an answer, one serializer per surface: problem details for the platform API (RFC 9457), and
 * plain text for whatever escapes any other route. The OAuth surfaces (JSON and the authorization redirect) build on
 * the same unavailable path (lib/oauth/json-response.ts), the catalog services answer with their specification's
 * status codes (lib/catalog/catalog-response.ts), and pages with the localized error page (lib/i18n/error-page.ts).
 * An unreachable database takes one path everywhere: one log line, 503, Retry-After. Anything else unexpected is
 * logged with its cause and answered without internals.
 */
import { ApiProblem, PROBLEM_TYPES, problemTypeUri } from "@/lib/errors/api-problem";
import { isDatabaseUnavailable, logDatabaseUnavailable } from "@/lib/errors/database-unavailable";
import { BodyTooLargeError, NulCharacterError, RequestBodyError } from "@/lib/http/form-body";
import { logger } from "@/lib/observability/logger";

const UNAVAILABLE_MESSAGE = "The service cannot reach its database just now. Please try again shortly.";
const RETRY_AFTER = { "Retry-After": "5" };

/**
 * When `error` says the database cannot be reached: its one log line, and the surface's 503 answer as `format`
 * makes it from the shared message and headers. Undefined for any other error.
 */
export function unavailableAnswer<Answer>(
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
