/**
 * The lean HTTP front of the Node deployment: serves the hot protocol endpoints (token, revocation, introspection,
 * discovery, JWKS), the catalog services and the platform API straight from their web-standard handlers, skipping Next.js's
 * request pipeline, which costs more than the endpoints themselves. Everything else goes to Next.js. Same handlers as
 * the route files: one implementation. The token, revocation and introspection endpoints are ProtocolHandlers
 * (lib/http/protocol-message.ts), fed from the socket and written back to it without web-standard objects between.
 */
import { OptiGateError } from "@/lib/errors/optigate-error";
import { MAX_FORM_BYTES } from "@/lib/config/policy";
import { logger } from "@/lib/observability/logger";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { ApiProblem } from "@/lib/errors/api-problem";
import { problemAnswer } from "@/lib/http/error-answers";
import { BodyTooLargeError } from "@/lib/http/form-body";
import { isStreamed, textOf } from "@/lib/http/streamed-response";
import { markFrontRequest } from "@/lib/http/front-requests";
import type { HeaderReader, ProtocolHandler, ProtocolResponse } from "@/lib/http/protocol-message";
import {
  PROTOCOL_ROUTES,
  ROUTE_TABLE,
  ROUTES,
  type Handler,
  type RoutePath,
  type RouteSpec,
} from "@/lib/server/routes";

const FAST_PATHS = (Object.keys(ROUTE_TABLE) as RoutePath[]).filter((path) => (ROUTE_TABLE[path] as RouteSpec).fast);
const CATCH_ALL = "[...path]";

/** The platform API's entry: every path under its prefix and every method, answered by its own router. */
const API_PATH = FAST_PATHS.find((path) => (ROUTE_TABLE[path] as RouteSpec).api)!;
const API_PREFIX = API_PATH.slice(0, -CATCH_ALL.length);
const API_ROUTES: Record<string, Handler> = ROUTES[API_PATH];

/** The other entries served here; Next.js serves the rest (the same handlers, through the route files). */
const FAST_ROUTES = new Map<string, Record<string, Handler>>(
  FAST_PATHS.filter((path) => path !== API_PATH).map((path) => [path, ROUTES[path]]),
);

/** Paths under /v2/: the platform API answers every one of them, with its own 404 and 405. */
export const isApiPath = (path: string): boolean => path.startsWith(API_PREFIX);

export type FastRoute = { protocol: ProtocolHandler } | { web: Handler };

const asWeb = (handler: Handler | undefined): FastRoute | undefined => (handler ? { web: handler } : undefined);

/** The handler serving this request directly, or undefined to hand it to Next.js. */
export function fastRoute(method: string | undefined, url: string | undefined): FastRoute | undefined {
  const path = (url ?? "").split("?", 1)[0];
  if (isApiPath(path)) return asWeb(API_ROUTES[method ?? ""]);
  const protocol = method === "POST" ? PROTOCOL_ROUTES[path as RoutePath] : undefined;
  return protocol ? { protocol } : asWeb(FAST_ROUTES.get(path)?.[method ?? ""]);
}

/** The caller went away while its request was read: nobody is left to answer. */
class CallerGone extends OptiGateError<"caller_gone"> {
  readonly code = "caller_gone";
}

/** The body, counted while it arrives; a declared or actual size over MAX_FORM_BYTES stops reading. */
function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  if (Number(request.headers["content-length"] ?? Number.NaN) > MAX_FORM_BYTES)
    return Promise.reject(new BodyTooLargeError(MAX_FORM_BYTES));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_FORM_BYTES) return chunks.push(chunk);
      request.pause();
      reject(new BodyTooLargeError(MAX_FORM_BYTES));
    });
    request.on("end", () => resolve(chunks.length > 0 ? Buffer.concat(chunks) : undefined));
    request.on("aborted", () => reject(new CallerGone("the caller went away before its body arrived")));
    request.on("error", () => reject(new CallerGone("the caller went away before its body arrived")));
  });
}

/**
 * The request as a web-standard Request. Its URL is the path on PUBLIC_URL: the Host header is the caller's word.
 * X-Forwarded-For is taken as the Node server left it (the socket's address appended), not as the caller sent it.
 */
function toRequest(incoming: IncomingMessage, url: URL, body: Buffer | undefined, gone: AbortSignal): Request {
  const headers = new Headers();
  for (let index = 0; index < incoming.rawHeaders.length; index += 2) {
    if (incoming.rawHeaders[index].toLowerCase() !== "x-forwarded-for")
      headers.append(incoming.rawHeaders[index], incoming.rawHeaders[index + 1]);
  }
  const forwardedFor = incoming.headers["x-forwarded-for"];
  if (forwardedFor) headers.set("x-forwarded-for", [forwardedFor].flat().join(", "));
  return markFrontRequest(
    new Request(url, {
      method: incoming.method,
      headers,
      body: body ? new Uint8Array(body) : undefined,
      signal: gone,
    }),
  );
}

const FRONT_HEADERS = { "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer" };

/** The request's headers as a handler reads them; X-Forwarded-For as the Node server left it (see toRequest). */
function headerReader(incoming: IncomingMessage): HeaderReader {
  return {
    get(name) {
      const value = incoming.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
  };
}

function writeProtocolResponse(response: ProtocolResponse, outgoing: ServerResponse): void {
  outgoing.writeHead(response.status, {
    ...FRONT_HEADERS,
    ...response.headers,
    "Content-Length": Buffer.byteLength(response.body),
  });
  outgoing.end(response.body);
}

async function writeResponse(response: Response, outgoing: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = { ...FRONT_HEADERS };
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  const text = textOf(response);
  if (text !== undefined) {
    // Its headers carry the Content-Length; Node writes the text as UTF-8 (and no body to a HEAD).
    outgoing.writeHead(response.status, headers);
    outgoing.end(text);
    return;
  }
  if (isStreamed(response) && response.body) {
    outgoing.writeHead(response.status, headers);
    // Backpressure from the socket paces the reads; a caller who goes away cancels them.
    await pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), outgoing);
    return;
  }
  const body = Buffer.from(await response.arrayBuffer());
  // A 304 has no body; its Content-Length would claim the full answer's length (RFC 9110 §8.6).
  if (response.status !== 304) headers["content-length"] = String(body.length);
  outgoing.writeHead(response.status, headers);
  outgoing.end(body);
}

function answer(outgoing: ServerResponse, status: number, body: Record<string, string>, close = false): void {
  outgoing.writeHead(status, {
    "content-type": "application/json",
    "cache-control": "no-store",
    ...(close ? { connection: "close" } : {}),
  });
  outgoing.end(JSON.stringify(body));
}

/** Serves one request with `route`; `publicUrl` is the base of the request URLs the handlers see. */
export async function serveFast(
  route: FastRoute,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  publicUrl: string,
): Promise<void> {
  let url: URL;
  try {
    url = new URL(incoming.url ?? "/", publicUrl);
  } catch {
    return answer(outgoing, 400, {
      error: "invalid_request",
      error_description: "the request target is not a valid URL",
    });
  }
  try {
    const body = incoming.method === "GET" || incoming.method === "HEAD" ? undefined : await readBody(incoming);
    if ("protocol" in route) {
      const request = { method: incoming.method!, url: url.href, headers: headerReader(incoming), body };
      return writeProtocolResponse(await route.protocol(request), outgoing);
    }
    // The request's signal says when the caller has gone before the answer ended (work for it can stop).
    const gone = new AbortController();
    const leave = () => gone.abort();
    incoming.socket.once("close", leave);
    outgoing.once("finish", () => incoming.socket.off("close", leave));
    await writeResponse(await route.web(toRequest(incoming, url, body, gone.signal)), outgoing);
  } catch (error) {
    if (error instanceof CallerGone) return void outgoing.destroy();
    if (outgoing.headersSent) {
      // Part of a streamed answer is out: cutting the connection is the only honest way to say it failed.
      if (!outgoing.destroyed) logger.error({ err: error }, "fast front: answer broken off");
      outgoing.destroy();
      return;
    }
    // Closing the connection stops the rest of an oversized body from being read.
    if (error instanceof BodyTooLargeError && isApiPath(url.pathname)) {
      outgoing.setHeader("connection", "close");
      return writeResponse(
        problemAnswer(new ApiProblem("payload-too-large", `The body must be at most ${error.limit} bytes.`)),
        outgoing,
      );
    }
    if (error instanceof BodyTooLargeError)
      return answer(outgoing, 413, { error: "invalid_request", error_description: error.message }, true);
    logger.error({ err: error }, "fast front: request failed");
    answer(outgoing, 500, { error: "server_error", error_description: "an unexpected error occurred" });
  }
}
