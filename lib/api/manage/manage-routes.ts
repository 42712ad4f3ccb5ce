/**
 * Every route of the management API, gathered from the resources' modules, and its OpenAPI document's route. The
 * router (manage-api.ts) matches requests against them; the document's paths and schemas come from them.
 */
import { manageOpenApiDocument } from "@/lib/api/manage/manage-openapi";
import type { ManageRoute } from "@/lib/api/manage/manage-call";
import { answerManageRequest } from "@/lib/api/manage/manage-api";
import { COMPANY_ROUTES, COMPANY_SCHEMAS } from "@/lib/api/manage/company-routes";
import { AUDIT_ROUTES, AUDIT_SCHEMAS } from "@/lib/api/manage/audit-routes";
import { SSO_ROUTES, SSO_SCHEMAS } from "@/lib/api/manage/sso-routes";
import { USER_ROUTES } from "@/lib/api/manage/user-routes";
import { INVITATION_ROUTES } from "@/lib/api/manage/invitation-routes";
import { INVITATION_SCHEMAS, USER_SCHEMAS } from "@/lib/api/manage/people-schemas";
import { CLIENT_ROUTES, CLIENT_SCHEMAS } from "@/lib/api/manage/client-routes";
import { KEY_ROUTES, KEY_SCHEMAS } from "@/lib/api/manage/key-routes";
import { ISSUER_ROUTES, ISSUER_SCHEMAS } from "@/lib/api/manage/issuer-routes";
import { OUTBOX_ROUTES, OUTBOX_SCHEMAS } from "@/lib/api/manage/outbox-routes";
import { WEBHOOK_ROUTES, WEBHOOK_SCHEMAS } from "@/lib/api/manage/webhook-routes";
import { queryParameters } from "@/lib/api/request-input";
import type { ServiceContext } from "@/lib/service-context";

export const MANAGE_SCHEMAS: Record<string, unknown> = {
  ...COMPANY_SCHEMAS,
  ...SSO_SCHEMAS,
  ...AUDIT_SCHEMAS,
  ...USER_SCHEMAS,
  ...INVITATION_SCHEMAS,
  ...CLIENT_SCHEMAS,
  ...KEY_SCHEMAS,
  ...ISSUER_SCHEMAS,
  ...OUTBOX_SCHEMAS,
  ...WEBHOOK_SCHEMAS,
};

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
  ...AUDIT_ROUTES,
  ...SSO_ROUTES,
  ...USER_ROUTES,
  ...INVITATION_ROUTES,
  ...CLIENT_ROUTES,
  ...KEY_ROUTES,
  ...ISSUER_ROUTES,
  ...OUTBOX_ROUTES,
  ...WEBHOOK_ROUTES,
];

/** Every method of every path under /manage/v1/. */
export const handleManageRequest = (request: Request, context: ServiceContext): Promise<Response> =>
  answerManageRequest(MANAGE_ROUTES, request, context);
