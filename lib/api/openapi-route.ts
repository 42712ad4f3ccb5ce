/** GET /v2/openapi.json: the API's OpenAPI document (no token needed). */
import type { ApiCall } from "@/lib/api/api-call";
import type { ApiRoute } from "@/lib/api/api-routes";
import { openApiDocument } from "@/lib/api/openapi-document";
import { queryParameters } from "@/lib/api/request-input";

export async function openApiRoute(call: ApiCall, routes: readonly ApiRoute[]): Promise<Response> {
  queryParameters(call.url, []);
  const body = JSON.stringify(openApiDocument(call.context.config, routes));
  return new Response(body, {
    status: 200,
    headers: { "Content-Type": "application/json", "Cache-Control": "public, max-age=300" },
  });
}
