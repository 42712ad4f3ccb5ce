/**
 * The integration test's OptiGate behind a real Node HTTP server, for relying-party libraries that must meet it over
 * the wire: OptiGate's own listener (lib/server/node-server.ts, whose lean front answers the protocol endpoints) with
 * the route handlers for everything else, where Next.js would serve them. The service's issuer stays ISSUER; the fetch
 * given to a library sends ISSUER's requests to this server's port, as a port forward would. A test whose relying
 * party runs in a process of its own gives the service the server's own address as its issuer instead.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createNodeServer } from "@/lib/server/node-server";
import { ISSUER } from "./oauth-service";
import { routeFetch } from "./route-fetch";

/** What RP libraries pass to a custom fetch (their bodies include byte arrays, which fetch takes). */
interface FetchOptions {
  method?: string;
  headers?: HeadersInit;
  body?: unknown;
  redirect?: RequestRedirect;
  signal?: AbortSignal | null;
}

export interface HttpService {
  /** Where the server listens, for another server to call it (a provider's back-channel logout). */
  origin: string;
  /** fetch for URLs of ISSUER, answered by the server over HTTP. */
  fetch(url: string, options?: FetchOptions): Promise<Response>;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return chunks.length > 0 ? Buffer.concat(chunks) : undefined;
}

const serveRouteOf = (issuer: string) => async (request: IncomingMessage, response: ServerResponse) => {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers))
    if (value !== undefined) headers.set(name, [value].flat().join(", "));
  const answer = await routeFetch(`${issuer}${request.url}`, {
    method: request.method,
    headers,
    body: await readBody(request),
  });
  const outgoing: Record<string, string | string[]> = Object.fromEntries(answer.headers);
  if (answer.headers.getSetCookie().length > 0) outgoing["set-cookie"] = answer.headers.getSetCookie();
  response.writeHead(answer.status, outgoing).end(Buffer.from(await answer.arrayBuffer()));
};

/** The service on a port of its own; `at`: the issuer it serves and its port (the issuer's origin is this server). */
export async function startHttpService(
  at: { issuer: string; port: number } = { issuer: ISSUER, port: 0 },
): Promise<HttpService> {
  const server = createNodeServer(at.issuer, serveRouteOf(at.issuer));
  await new Promise<void>((resolve) => server.listen(at.port, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    fetch: (url, options = {}) => {
      if (!url.startsWith(`${at.issuer}/`)) throw new Error(`${url} is not a URL of the service`);
      return fetch(origin + url.slice(at.issuer.length), { ...options, body: options.body as BodyInit | undefined });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
