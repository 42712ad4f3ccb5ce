/**
 * Every route of the management API, gathered from the resources' modules, and its OpenAPI document's route. The
 * router (manage-api.ts) matches requests against them; the document's paths and schemas come from them.
 */
import { manageOpenApiDocument } from "@/lib/api/manage/manage-openapi";
import type { ManageRoute } from "@/lib/api/manage/manage-call";
import { answerManageRequest } from "@/lib/api/manage/manage-api";
import { COMPANY_ROUTES, COMPANY_SCHEMAS } from "@/lib/api/manage/company-routes";
import { queryParameters } from "@/lib/api/request-input";
import type { ServiceContext } from "@/lib/service-context";

export const MANAGE_SCHEMAS: Record<string, unknown> = { ...COMPANY_SCHEMAS };

export const MANAGE_ROUTES: readonly ManageRoute[] = [
  {
    method: "GET",
    path: "/manage/v1/openapi.json",
    scopes: [],
    serve: async (call) => {
      queryParameters(call.url, []);
      const body = JSON.stringify(manageOpenApiDocument(call.context.config, MANAGE_ROUTES, MANAGE_SCHEMAS));
      return new Response(body, {
        headers: { "Content-Type": "application/json", "Cache-Control": "public, max-age=300" },
      });
    },
    operation: {
      operationId: "getOpenApi",
      summary: "This document",
      responses: {
        "200": { description: "The OpenAPI document", content: { "application/json": { schema: { type: "object" } } } },
      },
    },
  },
  ...COMPANY_ROUTES,
];

/** Every method of every path under /manage/v1/. */
export const handleManageRequest = (request: Request, context: ServiceContext): Promise<Response> =>
  answerManageRequest(MANAGE_ROUTES, request, context);
