/**
 * CORS for the endpoints browser apps call (token, revocation, userinfo, discovery, JWKS, the platform API): requests from an origin
 * some browser client registered are answered with Access-Control-Allow-Origin, preflights included; all others get
 * no CORS headers (preflights a 403). The authorization endpoint is a navigation and never sends CORS headers.
 */
import { appendHeader, type HeaderReader, type ProtocolHandler } from "@/lib/http/protocol-message";
import type { ClientStore } from "@/lib/store/client-store";

type Handler = (request: Request) => Promise<Response>;

export interface CorsOptions {
  /** Request headers a browser may send besides the simple ones. */
  allowHeaders?: string[];
  /** Response headers a browser's script may read. */
  exposeHeaders?: string[];
}

/** The request's Origin when it is a registered browser client's. */
async function corsOrigin(clients: () => ClientStore, request: { headers: HeaderReader }): Promise<string | undefined> {
  const origin = request.headers.get("origin");
  return origin && (await clients().corsOrigins()).has(origin) ? origin : undefined;
}

/** A DPoP client reads the server's nonce (RFC 9449 §8) and the challenge of a refusal. */
const EXPOSED = "WWW-Authenticate, DPoP-Nonce";

/** CORS for a ProtocolHandler (lib/http/protocol-message.ts): the answer's headers, as withCors sets them. */
export function withProtocolCors(clients: () => ClientStore, handler: ProtocolHandler): ProtocolHandler {
  return async (request) => {
    const response = await handler(request);
    appendHeader(response, "Vary", "Origin");
    const origin = await corsOrigin(clients, request);
    if (origin)
      Object.assign(response.headers, {
        "Access-Control-Allow-Origin": origin,
        "Access-Control-Expose-Headers": EXPOSED,
      });
    return response;
  };
}

/**
 * Wraps a route handler with CORS; returns the wrapped handler and the OPTIONS (preflight) handler. `methods` may
 * depend on the request (the platform API's routes differ by path).
 */
export function withCors(
  clients: () => ClientStore,
  methods: string[] | ((request: Request) => string[]),
  handler: Handler,
  options: CorsOptions = {},
): { handle: Handler; preflight: Handler } {
  const allowedOrigin = (request: { headers: HeaderReader }) => corsOrigin(clients, request);
  const exposed = [EXPOSED, ...(options.exposeHeaders ?? [])].join(", ");
  const allowed = [...new Set(["Authorization", "Content-Type", "DPoP", ...(options.allowHeaders ?? [])])].join(", ");
  return {
    async handle(request) {
      const response = await handler(request);
      const origin = await allowedOrigin(request);
      response.headers.append("Vary", "Origin");
      if (origin) {
        response.headers.set("Access-Control-Allow-Origin", origin);
        response.headers.set("Access-Control-Expose-Headers", exposed);
      }
      return response;
    },
    async preflight(request) {
      const origin = await allowedOrigin(request);
      const allowedMethods = typeof methods === "function" ? methods(request) : methods;
      if (!origin || allowedMethods.length === 0)
        return new Response(null, { status: 403, headers: { Vary: "Origin" } });
      return new Response(null, {
        status: 204,
        headers: {
          "Access-Control-Allow-Origin": origin,
          "Access-Control-Allow-Methods": [...allowedMethods, "OPTIONS"].join(", "),
          "Access-Control-Allow-Headers": allowed,
          "Access-Control-Max-Age": "600",
          Vary: "Origin",
        },
      });
    },
  };
}
