/**
 * Requests and responses of the endpoints that clients call at volume (token, revocation, introspection), as plain
 * values: what the handler reads (method, URL, headers, a body already read within its bound) and what it answers
 * (status, headers, a text body). Profiling the token endpoint showed building a web-standard Request and Response
 * per call, and reading their bodies back through web streams, costing about as much as signing the token. Next.js's
 * route files adapt them from and to Request and Response (below); the Node server's lean front builds and writes
 * them straight from and to the socket (lib/server/fast-front.ts). One handler serves both.
 */
import { readBodyBytes } from "@/lib/http/form-body";

/** The part of Headers a handler reads: web Headers satisfy it. */
export interface HeaderReader {
  get(name: string): string | null;
}

export interface ProtocolRequest {
  readonly method: string;
  /** Absolute, on PUBLIC_URL. */
  readonly url: string;
  readonly headers: HeaderReader;
  /** Read and bounded (MAX_FORM_BYTES) before the handler runs; undefined for GET and HEAD. */
  readonly body: Uint8Array | undefined;
}

export interface ProtocolResponse {
  status: number;
  /** Header names as they are sent. */
  headers: Record<string, string>;
  body: string;
}

export type ProtocolHandler = (request: ProtocolRequest) => Promise<ProtocolResponse>;

/** A Request as a ProtocolRequest: its body is read here, within the bound (BodyTooLargeError beyond it). */
async function protocolRequestFrom(request: Request): Promise<ProtocolRequest> {
  const body = request.method === "GET" || request.method === "HEAD" ? undefined : await readBodyBytes(request);
  return { method: request.method, url: request.url, headers: request.headers, body };
}

export function webResponse(response: ProtocolResponse): Response {
  return new Response(response.status === 204 || response.body === "" ? null : response.body, {
    status: response.status,
    headers: response.headers,
  });
}

/** `handle` as a route handler of Next.js. */
export const webHandler =
  (handle: ProtocolHandler) =>
  async (request: Request): Promise<Response> =>
    webResponse(await handle(await protocolRequestFrom(request)));

/** Appends to a header that may hold a list (Vary). */
export function appendHeader(response: ProtocolResponse, name: string, value: string): void {
  const existing = response.headers[name];
  response.headers[name] = existing ? `${existing}, ${value}` : value;
}
