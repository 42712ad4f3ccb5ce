/**
 * The outermost layer of every route handler: a URL holding U+0000 is refused before the handler runs
 * (lib/http/nul-character.ts); whatever escapes the handler becomes a plain answer without internals (a body over
 * the limit 413, one that did not arrive or holds U+0000 400, an unreachable database 503 with one log line;
 * anything else unexpected is logged here and answered 500), and every answer carries
 * HSTS when OptiGate is served over https (when Next.js serves alone, nothing else adds it). Each request is one
 * JSON log line (time, request id, method, path without its query, status, duration, client) and one observation
 * of the latency histogram; its id comes back in X-Request-Id.
 */
import { getConfig } from "@/lib/config";
import { ApiProblem, problemResponse } from "@/lib/api/problem";
import { BodyTooLargeError, NulCharacterError, RequestBodyError } from "@/lib/http/form-body";
import { NUL_REFUSAL, urlHasNul } from "@/lib/http/nul-character";
import { isDatabaseUnavailable, logDatabaseUnavailable } from "@/lib/db/database-errors";
import { strictTransportSecurity } from "@/lib/http/page-security-headers";
import { randomUUID } from "node:crypto";
import { logger } from "@/lib/observability/logger";
import { metrics } from "@/lib/observability/metrics";
import { runInRequestContext, type RequestContext } from "@/lib/observability/request-context";

export type Handler = (request: Request) => Promise<Response>;

const plain = (status: number, text: string) => new Response(`${text}\n`, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

function withTransportSecurity(response: Response): Response {
  const hsts = strictTransportSecurity(getConfig().publicUrl);
  if (hsts && !response.headers.has("Strict-Transport-Security")) response.headers.set("Strict-Transport-Security", hsts);
  return response;
}

/** The API answers with problem details, everything else in plain text. */
function refuseNul(request: Request): Response {
  return new URL(request.url).pathname.startsWith("/v2/") ? problemResponse(new ApiProblem("bad-request", NUL_REFUSAL)) : plain(400, NUL_REFUSAL);
}

async function answer(handle: Handler, request: Request): Promise<Response> {
  if (urlHasNul(request.url)) return refuseNul(request);
  try {
    return await handle(request);
  } catch (error) {
    if (error instanceof NulCharacterError) return refuseNul(request);
    if (error instanceof BodyTooLargeError) return plain(413, `The request body is too large (at most ${error.limit} bytes).`);
    if (error instanceof RequestBodyError) return plain(error.status, "The request body did not arrive in full.");
    if (isDatabaseUnavailable(error)) {
      logDatabaseUnavailable(`${request.method} ${new URL(request.url).pathname}`, error);
      const answer = plain(503, "The service cannot reach its database just now. Please try again shortly.");
      answer.headers.set("Retry-After", "5");
      return answer;
    }
    logger.error({ err: error, method: request.method, path: new URL(request.url).pathname }, "request failed");
    return plain(500, "Something went wrong on our side. Please try again later.");
  }
}

/** A caller's X-Request-Id when it is a plain token (a proxy's), otherwise a new one. */
const requestIdOf = (request: Request) => {
  const given = request.headers.get("x-request-id");
  return given && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
};

export function guardedHandler(handle: Handler): Handler {
  return async (request) => {
    const started = performance.now();
    const path = new URL(request.url).pathname;
    const context: RequestContext = { requestId: requestIdOf(request), endpoint: path.startsWith("/v2/") ? "/v2" : path };
    const response = withTransportSecurity(await runInRequestContext(context, () => answer(handle, request)));
    const seconds = (performance.now() - started) / 1000;
    response.headers.set("X-Request-Id", context.requestId);
    metrics.requests.observe({ endpoint: context.endpoint, method: request.method, status: `${Math.floor(response.status / 100)}xx` }, seconds);
    // API paths are the caller's text: a log line keeps their first 200 characters.
    logger.info({ requestId: context.requestId, method: request.method, path: path.slice(0, 200), status: response.status, durationMs: Math.round(seconds * 10_000) / 10, clientId: context.clientId }, "request");
    return response;
  };
}
