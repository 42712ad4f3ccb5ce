/**
 * The lean HTTP front of the Node deployment: serves the hot protocol endpoints (token, introspection, discovery,
 * JWKS) and the catalog services straight from their web-standard handlers, skipping Next.js's request pipeline,
 * which costs more than the endpoints themselves. Everything else goes to Next.js. Same handlers as the route files:
 * one implementation.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { catalogInfosEndpoint, discoveryEndpoint, introspectionEndpoint, jwksEndpoint, subCatalogEndpoint, tokenEndpoint } from "@/lib/server/protocol-endpoints";

type Handler = (request: Request) => Promise<Response>;

/** Answers that are written as they are produced (a sub-catalog can be tens of megabytes); the rest are buffered. */
const STREAMED = new Set<Handler>([subCatalogEndpoint]);

const MAX_BODY_BYTES = 64 * 1024;

const ROUTES: Record<string, Record<string, Handler>> = {
  "/connect/token": { POST: tokenEndpoint.handle, OPTIONS: tokenEndpoint.preflight },
  "/connect/introspect": { POST: introspectionEndpoint },
  "/.well-known/openid-configuration": { GET: discoveryEndpoint.handle, OPTIONS: discoveryEndpoint.preflight },
  "/.well-known/openid-configuration/jwks": { GET: jwksEndpoint.handle, OPTIONS: jwksEndpoint.preflight },
  "/getCatalogInfos.ashx": { GET: catalogInfosEndpoint },
  "/getSubCatalog.ashx": { GET: subCatalogEndpoint },
};

/** The handler serving this request directly, or undefined to hand it to Next.js. */
export function fastRoute(method: string | undefined, url: string | undefined): Handler | undefined {
  const path = (url ?? "").split("?", 1)[0];
  return ROUTES[path]?.[method ?? ""];
}

function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) reject(new Error("request body too large"));
      else chunks.push(chunk);
    });
    request.on("end", () => resolve(chunks.length > 0 ? Buffer.concat(chunks) : undefined));
    request.on("error", reject);
  });
}

function toRequest(incoming: IncomingMessage, body: Buffer | undefined): Request {
  const headers = new Headers();
  for (let index = 0; index < incoming.rawHeaders.length; index += 2) headers.append(incoming.rawHeaders[index], incoming.rawHeaders[index + 1]);
  return new Request(`http://${incoming.headers.host ?? "localhost"}${incoming.url}`, { method: incoming.method, headers, body: body ? new Uint8Array(body) : undefined });
}

async function writeResponse(response: Response, outgoing: ServerResponse, streamed: boolean): Promise<void> {
  const headers: Record<string, string | string[]> = { "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer" };
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  if (streamed && response.body) {
    outgoing.writeHead(response.status, headers);
    // Backpressure from the socket paces the reads; a caller who goes away cancels them.
    await pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), outgoing);
    return;
  }
  const body = Buffer.from(await response.arrayBuffer());
  headers["content-length"] = String(body.length);
  outgoing.writeHead(response.status, headers);
  outgoing.end(body);
}

export async function serveFast(handler: Handler, incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
  try {
    const body = incoming.method === "GET" || incoming.method === "HEAD" ? undefined : await readBody(incoming);
    await writeResponse(await handler(toRequest(incoming, body)), outgoing, STREAMED.has(handler));
  } catch (error) {
    if (outgoing.headersSent) {
      // Part of a streamed answer is out: cutting the connection is the only honest way to say it failed.
      if (!outgoing.destroyed) console.error("fast front: answer broken off:", error);
      outgoing.destroy();
      return;
    }
    const tooLarge = error instanceof Error && error.message === "request body too large";
    if (!tooLarge) console.error("fast front:", error);
    const status = tooLarge ? 413 : 500;
    outgoing.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
    outgoing.end(JSON.stringify({ error: tooLarge ? "invalid_request" : "server_error", error_description: tooLarge ? "request body too large" : "an unexpected error occurred" }));
  }
}
