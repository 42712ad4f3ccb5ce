/**
 * A fetch that answers from OptiGate's route handlers (lib/server/routes.ts) instead of the network, so that an RP
 * library such as openid-client can talk to the service of an integration test as it would over HTTP.
 */
import { ROUTES } from "@/lib/server/routes";

type Handler = (request: Request) => Promise<Response>;

export async function routeFetch(
  url: string,
  init: {
    method?: string;
    headers?: HeadersInit;
    body?: unknown;
    redirect?: RequestRedirect;
    signal?: AbortSignal | null;
  } = {},
): Promise<Response> {
  const request = new Request(url, { ...init, body: init.body as BodyInit | null | undefined });
  const routes = ROUTES as Record<string, Record<string, Handler>>;
  const path = new URL(request.url).pathname;
  const handler = (routes[path] ?? (path.startsWith("/v2/") ? routes["/v2/[...path]"] : undefined))?.[request.method];
  if (!handler) return new Response("no such route", { status: 404 });
  return handler(request);
}
