/**
 * A fetch that answers from OptiGate's route handlers (lib/server/routes.ts) instead of the network, so that an RP
 * library such as openid-client can talk to the service of an integration test as it would over HTTP.
 */
import { ROUTES } from "@/lib/server/routes";

type Handler = (request: Request) => Promise<Response>;

export async function routeFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const routes = ROUTES as Record<string, Record<string, Handler>>;
  const path = new URL(request.url).pathname;
  const handler = (routes[path] ?? (path.startsWith("/v2/") ? routes["/v2/[...path]"] : undefined))?.[request.method];
  if (!handler) return new Response("no such route", { status: 404 });
  return handler(request);
}
