/**
 * What every request to the Node deployment (scripts/serve.ts) passes before the lean front or Next.js sees it:
 * methods this service never answers get 405, and so do all but GET and HEAD on paths that are pages (OptiGate has no
 * server actions; Next.js would otherwise read such a body for one); a request target that is no path, a Host header
 * that names no host, a path with broken percent-encoding, or a router state header Next.js cannot parse (it answers
 * those two with a 500) gets 400; every answer carries HSTS when OptiGate is served over https; the socket's address
 * is appended to X-Forwarded-For for throttling and audit; and a body the answer did not need is not read on: the
 * connection is closed instead.
 */
import { ENDPOINTS } from "@/lib/http/paths";
import { KEEP_ALIVE_TIMEOUT_MS } from "@/lib/config/policy";
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from "node:http";
import { parseAndValidateFlightRouterState } from "next/dist/server/app-render/parse-and-validate-flight-router-state";
import { appendForwardedFor } from "@/lib/http/client-address";
import { isDecodablePath, UNDECODABLE_PATH_REFUSAL } from "@/lib/http/decodable-path";
import { strictTransportSecurity } from "@/lib/http/page-security-headers";
import { logger } from "@/lib/observability/logger";
import { fastRoute, isApiPath, serveFast } from "@/lib/server/fast-front";
import { ROUTES } from "@/lib/server/routes";

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const PAGE_METHODS = new Set(["GET", "HEAD"]);
const ROUTE_PATHS = new Set<string>(Object.keys(ROUTES));
const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * Node's request timeout is 300 s by default: a body that never ends would hold its socket that long. Two minutes
 * still takes a 100 MB catalog upload over a slow line.
 */
const SERVER_OPTIONS: ServerOptions = { requestTimeout: 120_000, headersTimeout: 20_000 };
/** How long a connection stays after an answer that ended its body's reading, so that the caller gets the answer. */
const LINGER_MS = 2000;

/** Next.js's own reading of the header, so that what passes here is what it accepts. */
function isParsableRouterState(header: string | string[] | undefined): boolean {
  try {
    parseAndValidateFlightRouterState(header);
    return true;
  } catch {
    return false;
  }
}

/**
 * An answer that starts before its request's body arrived says it closes the connection (stopReading then ends it
 * once the answer is out), so that the caller sends its next request on a new one instead of a socket about to end.
 */
function closeUnlessBodyRead(request: IncomingMessage, response: ServerResponse): void {
  const writeHead = response.writeHead.bind(response) as (...args: unknown[]) => ServerResponse;
  const hasBody =
    Number(request.headers["content-length"] ?? 0) > 0 || request.headers["transfer-encoding"] !== undefined;
  response.writeHead = ((...args: unknown[]) => {
    if (hasBody && !request.complete) response.shouldKeepAlive = false;
    return writeHead(...args);
  }) as ServerResponse["writeHead"];
}

/**
 * An answer given before its body was read (413, 405, a form that ignores a body it cannot use): Node would read and
 * drop the rest of the body to keep the connection, however long it is. Instead reading stops, the answer is
 * finished off (FIN), and the connection is closed a moment later, when the caller has had the answer.
 */
function stopReading(request: IncomingMessage): void {
  // The socket is gone when the connection was closed before the answer finished.
  const socket = request.socket as IncomingMessage["socket"] | null;
  if (request.complete || !socket) return;
  socket.pause();
  socket.end();
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

function refuse(response: ServerResponse, status: 400 | 405, text: string, allow?: string): void {
  response.writeHead(status, {
    "content-type": "text/plain; charset=utf-8",
    "cache-control": "no-store",
    connection: "close",
    ...(allow ? { allow } : {}),
  });
  response.end(`${text}\n`);
}

const routePath = (path: string): keyof typeof ROUTES | undefined =>
  ROUTE_PATHS.has(path) ? (path as keyof typeof ROUTES) : isApiPath(path) ? ENDPOINTS.platformApi : undefined;

/** The methods a path answers, for the Allow header of a 405 (RFC 9110 §15.5.6). */
function allowedMethods(path: string): string {
  const route = routePath(path);
  if (!route) return [...PAGE_METHODS].join(", ");
  const methods = Object.keys(ROUTES[route]);
  return (methods.includes("GET") && !methods.includes("HEAD") ? [...methods, "HEAD"] : methods).join(", ");
}

function requestListener(
  publicUrl: string,
  next: (request: IncomingMessage, response: ServerResponse) => unknown,
): RequestListener {
  const hsts = strictTransportSecurity(publicUrl);
  return (request, response) => {
    if (hsts) response.setHeader("Strict-Transport-Security", hsts);
    const started = performance.now();
    closeUnlessBodyRead(request, response);
    const method = request.method ?? "";
    const path = (request.url ?? "/").split("?", 1)[0];
    // The router fetching a linked page ahead, in case it is clicked: no page the person opened.
    const prefetch = request.headers["next-router-prefetch"] !== undefined;
    response.on("finish", () => {
      stopReading(request);
      // Route handlers write their own request line (guarded-handler.ts); pages and refusals get theirs here.
      if (!routePath(path))
        logger.info(
          {
            method,
            path: path.slice(0, 200),
            status: response.statusCode,
            durationMs: Math.round((performance.now() - started) * 10) / 10,
            ...(prefetch ? { prefetch } : {}),
          },
          "request",
        );
    });
    if (!METHODS.has(method) || (!routePath(path) && !PAGE_METHODS.has(method)))
      return refuse(response, 405, "Method not allowed.", allowedMethods(path));
    const host = request.headers.host;
    if (host !== undefined && (host.length > 255 || !HOST.test(host)))
      return refuse(response, 400, "The Host header names no host.");
    if (!(request.url ?? "").startsWith("/")) return refuse(response, 400, "The request target must be a path.");
    if (!isDecodablePath(request.url)) return refuse(response, 400, UNDECODABLE_PATH_REFUSAL);
    if (!isParsableRouterState(request.headers["next-router-state-tree"]))
      return refuse(response, 400, "The router state header cannot be read.");
    request.headers["x-forwarded-for"] = appendForwardedFor(
      request.headers["x-forwarded-for"],
      request.socket.remoteAddress,
    );
    const fast = fastRoute(request.method, request.url);
    if (fast) void serveFast(fast, request, response, publicUrl);
    else void next(request, response);
  };
}

/** The Node deployment's HTTP server: this listener, bounded timeouts, and CONNECT answered like any other method. */
export function createNodeServer(
  publicUrl: string,
  next: (request: IncomingMessage, response: ServerResponse) => unknown,
): Server {
  const server = createServer(SERVER_OPTIONS, requestListener(publicUrl, next));
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Without a listener Node drops a CONNECT request's socket without a word; it is a method like TRACE here.
  const hsts = strictTransportSecurity(publicUrl);
  server.on("connect", (_request, socket) =>
    socket.end(
      `HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD\r\n${hsts ? `Strict-Transport-Security: ${hsts}\r\n` : ""}Connection: close\r\nContent-Length: 0\r\n\r\n`,
    ),
  );
  return server;
}
