/**
 * The outermost layer of every route handler: a URL holding U+0000 is refused before the handler runs
 * (lib/http/nul-character.ts); whatever escapes the handler becomes a plain answer without internals (a body over
 * the limit 413, one that did not arrive or holds U+0000 400, an unreachable database 503 with one log line;
 * anything else unexpected is logged here and answered 500), and every answer carries
 * HSTS when OptiGate is served over https (when Next.js serves alone, nothing else adds it). Each request is one
 * JSON log line (time, request id, method, path without its query, status, duration, client, user, the caller's
 * address), one observation of the latency histogram and, while traces are exported, one span
 * (lib/server/request-span.ts); its id comes back in X-Request-Id.
 */
import { PAGES } from "@/lib/http/paths";
import { getConfig } from "@/lib/config";
import { clientAddress } from "@/lib/http/client-address";
import { ApiProblem } from "@/lib/errors/api-problem";
import { plainAnswer, plainFailureAnswer, problemAnswer, type PlainAnswer } from "@/lib/http/error-answers";
import { NUL_REFUSAL, urlHasNul } from "@/lib/http/nul-character";
import { strictTransportSecurity } from "@/lib/http/page-security-headers";
import { randomUUID } from "node:crypto";
import { logger } from "@/lib/observability/logger";
import { metrics } from "@/lib/observability/metrics";
import { runInRequestContext, type RequestContext } from "@/lib/observability/request-context";
import type { HeaderReader, ProtocolHandler, ProtocolResponse } from "@/lib/http/protocol-message";
import { AccessDenied } from "@/lib/rights/actor";
import { startRequestSpan } from "@/lib/server/request-span";

export type Handler = (request: Request) => Promise<Response>;

const plain = (answer: PlainAnswer) => new Response(answer.text, { status: answer.status, headers: answer.headers });
const protocolAnswer = (answer: PlainAnswer): ProtocolResponse => ({
  status: answer.status,
  headers: answer.headers,
  body: answer.text,
});

/** The API answers with problem details, everything else in plain text. */
function refuseNul(path: string): Response {
  return path.startsWith("/v2/")
    ? problemAnswer(new ApiProblem("bad-request", NUL_REFUSAL))
    : plain(plainAnswer(400, NUL_REFUSAL));
}

/**
 * A refusal of the rights layer that no form handler turned into its own answer: visitors go to sign in, a session
 * that owes its company's second factor to the security page, anyone else gets a 403.
 */
function accessDeniedAnswer(error: AccessDenied): Response {
  if (error.code === "forbidden") return plain(plainAnswer(403, "This is not allowed for your account."));
  const location =
    error.code === "sign_in_required" ? PAGES.login : `${PAGES.security}?${new URLSearchParams({ enrol: "required" })}`;
  return new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store" } });
}

async function answer(handle: Handler, request: Request, path: string): Promise<Response> {
  if (urlHasNul(request.url)) return refuseNul(path);
  try {
    return await handle(request);
  } catch (error) {
    if (error instanceof AccessDenied) return accessDeniedAnswer(error);
    // Work stopped because the caller went away: nobody reads the answer, and nothing went wrong here.
    if (request.signal.aborted && error instanceof DOMException && error.name === "AbortError")
      return plain(plainAnswer(400, "The caller went away."));
    const failure = plainFailureAnswer(error, request.method, path);
    return failure === "nul" ? refuseNul(path) : plain(failure);
  }
}

/** A caller's X-Request-Id when it is a plain token (a proxy's), otherwise a new one. */
const requestIdOf = (headers: HeaderReader) => {
  const given = headers.get("x-request-id");
  return given && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
};

/** Runs `work` as one request: its context for deep callers and its span, then its metrics and log line. */
async function asRequest<T>(
  method: string,
  path: string,
  headers: HeaderReader,
  work: () => Promise<T>,
  statusOf: (result: T) => number,
  setHeader: (result: T, name: string, value: string) => void,
): Promise<T> {
  const started = performance.now();
  const context: RequestContext = { requestId: requestIdOf(headers), endpoint: path.startsWith("/v2/") ? "/v2" : path };
  const span = startRequestSpan(method, context.endpoint, path, headers);
  const result = await runInRequestContext(context, span ? () => span.run(work) : work);
  const config = getConfig();
  const hsts = strictTransportSecurity(config.publicUrl);
  if (hsts) setHeader(result, "Strict-Transport-Security", hsts);
  setHeader(result, "X-Request-Id", context.requestId);
  const seconds = (performance.now() - started) / 1000;
  const status = statusOf(result);
  const address = clientAddress({ headers }, config.trustedProxies);
  span?.end(status, context, address);
  metrics.requests.observe({ endpoint: context.endpoint, method, status: `${Math.floor(status / 100)}xx` }, seconds);
  // API paths are the caller's text: a log line keeps their first 200 characters.
  logger.info(
    {
      requestId: context.requestId,
      method,
      path: path.slice(0, 200),
      status,
      durationMs: Math.round(seconds * 10_000) / 10,
      clientId: context.clientId,
      userId: context.userId,
      clientAddress: address,
      traceId: span?.traceId,
    },
    "request",
  );
  return result;
}

export function guardedHandler(handle: Handler): Handler {
  return (request) => {
    const path = pathOf(request.url);
    return asRequest(
      request.method,
      path,
      request.headers,
      () => answer(handle, request, path),
      (response) => response.status,
      (response, name, value) => {
        if (name !== "Strict-Transport-Security" || !response.headers.has(name)) response.headers.set(name, value);
      },
    );
  };
}

/** The same guard for a ProtocolHandler (lib/http/protocol-message.ts). */
export function guardedProtocolHandler(handle: ProtocolHandler): ProtocolHandler {
  return (request) => {
    const path = pathOf(request.url);
    const work = async (): Promise<ProtocolResponse> => {
      if (urlHasNul(request.url)) return protocolAnswer(plainAnswer(400, NUL_REFUSAL));
      try {
        return await handle(request);
      } catch (error) {
        const failure = plainFailureAnswer(error, request.method, path);
        return protocolAnswer(failure === "nul" ? plainAnswer(400, NUL_REFUSAL) : failure);
      }
    };
    return asRequest(
      request.method,
      path,
      request.headers,
      work,
      (response) => response.status,
      (response, name, value) => void (response.headers[name] ??= value),
    );
  };
}

/** The path of an absolute URL, without parsing all of it. */
function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  const end = url.indexOf("?", start);
  return end < 0 ? url.slice(start) : url.slice(start, end);
}
