/**
 * /manage/v1/webhooks: webhook endpoints, their secrets and delivery logs, through the rights functions of the pages
 * (lib/rights/webhooks.ts). An operator's client (`manage.webhooks.*`) keeps the platform's endpoints, or a company's
 * with ?companyId=; a company's own client (`manage.company.webhooks.*`) its company's alone, to which another
 * company's endpoint is not found. A secret is shown once: in the answer that makes it.
 */
import { queryParameters, readJsonObject } from "@/lib/api/request-input";
import {
  pageQuery,
  pageResponse,
  representationEtag,
  representationResponse,
  requireCurrent,
  type ManageCall,
  type ManageRoute,
} from "@/lib/api/manage/manage-call";
import { manageOperation, pathId, writeProblems } from "@/lib/api/manage/manage-openapi";
import { WEBHOOK_SCHEMAS } from "@/lib/api/manage/webhook-schemas";
import { json, ref, text } from "@/lib/api/openapi-schemas";
import { ApiProblem } from "@/lib/errors/api-problem";
import {
  addWebhookFor,
  changeWebhookFor,
  removeWebhookFor,
  replayWebhookDeliveryFor,
  rotateWebhookSecretFor,
  webhookDeliveriesFor,
  webhookFor,
  webhooksFor,
  type WebhookView,
} from "@/lib/rights/webhooks";
import type { WebhookDelivery } from "@/lib/store/models/webhook";

export { WEBHOOK_SCHEMAS };

const READ = ["manage.webhooks.read"];
const WRITE = ["manage.webhooks.write"];
const COMPANY_READ = ["manage.company.webhooks.read"];
const COMPANY_WRITE = ["manage.company.webhooks.write"];
/** An owner has at most MAX_WEBHOOK_ENDPOINTS endpoints: one page holds them. */
const MAX_ENDPOINT_PAGE = 50;
const MAX_DELIVERY_PAGE = 100;

const shown = (endpoint: WebhookView) => ({
  id: endpoint.id,
  company_id: endpoint.companyId,
  url: endpoint.url,
  description: endpoint.description,
  events: endpoint.events,
  enabled: endpoint.enabled,
  disabled_reason: endpoint.disabledReason,
  failing_since: endpoint.failingSince?.toISOString() ?? null,
  registered_by_operator: endpoint.registeredByOperator,
  created_at: endpoint.createdAt.toISOString(),
  updated_at: endpoint.updatedAt.toISOString(),
});

const shownDelivery = (delivery: WebhookDelivery) => ({
  id: delivery.id,
  webhook_id: delivery.endpointId,
  event_type: delivery.eventType,
  status: delivery.status,
  attempts: delivery.attempts,
  last_status: delivery.lastStatus,
  last_error: delivery.lastError,
  created_at: delivery.createdAt.toISOString(),
  last_attempt_at: delivery.lastAttemptAt?.toISOString() ?? null,
  delivered_at: delivery.deliveredAt?.toISOString() ?? null,
  payload: JSON.parse(delivery.payload) as unknown,
});

/** The endpoint with its new secret; the ETag is the endpoint's as GET shows it, so that it serves If-Match. */
function withSecret({ endpoint, secret }: { endpoint: WebhookView; secret: string }, status: number, more = {}) {
  const representation = shown(endpoint);
  return representationResponse({ ...representation, secret }, status, {
    ...more,
    ETag: representationEtag(representation),
  });
}

const companyQuery = (call: ManageCall) => queryParameters(call.url, ["companyId"]).get("companyId");

async function listWebhooks(call: ManageCall): Promise<Response> {
  const limits = { max: MAX_ENDPOINT_PAGE, default: MAX_ENDPOINT_PAGE };
  const { filters, page, cursorList } = pageQuery(call, "webhooks", ["companyId"], limits);
  const { endpoints } = await webhooksFor(call.actor, filters.get("companyId"));
  const found = endpoints
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .filter((endpoint) => page.after === undefined || endpoint.id > page.after)
    .slice(0, page.limit + 1);
  return pageResponse(call, cursorList, page, found, (endpoint) => endpoint.id, shown);
}

async function addWebhook(call: ManageCall): Promise<Response> {
  const companyId = companyQuery(call);
  const added = await addWebhookFor(call.actor, companyId, await readJsonObject(call.request));
  return withSecret(added, 201, { Location: `${call.url.pathname}/${encodeURIComponent(added.endpoint.id)}` });
}

async function getWebhook(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  return representationResponse(shown(await webhookFor(call.actor, call.params.webhookId)));
}

async function changeWebhook(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  const current = shown(await webhookFor(call.actor, call.params.webhookId));
  const change = await readJsonObject(call.request);
  requireCurrent(call, current, "webhook endpoint");
  return representationResponse(shown(await changeWebhookFor(call.actor, current.id, change)));
}

async function deleteWebhook(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  await removeWebhookFor(call.actor, call.params.webhookId);
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
}

async function rotateSecret(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  return withSecret(await rotateWebhookSecretFor(call.actor, call.params.webhookId), 200);
}

/** A delivery's position in the log (newest first): its creation time and id. */
const positionOf = (delivery: WebhookDelivery) => `${delivery.createdAt.toISOString()}|${delivery.id}`;

function positionFrom(key: string | undefined): { createdAt: Date; id: string } | undefined {
  if (key === undefined) return undefined;
  const [time, id] = [key.slice(0, key.indexOf("|")), key.slice(key.indexOf("|") + 1)];
  const createdAt = new Date(time);
  if (Number.isNaN(createdAt.getTime()) || !id)
    throw new ApiProblem("bad-request", "The cursor is not one of this list.");
  return { createdAt, id };
}

async function listDeliveries(call: ManageCall): Promise<Response> {
  const { webhookId } = call.params;
  const limits = { max: MAX_DELIVERY_PAGE, default: 50 };
  const { page, cursorList } = pageQuery(call, `webhooks/${webhookId}/deliveries`, [], limits);
  const found = await webhookDeliveriesFor(call.actor, webhookId, {
    limit: page.limit,
    after: positionFrom(page.after),
  });
  return pageResponse(call, cursorList, page, found, positionOf, shownDelivery);
}

async function replayDelivery(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  const { webhookId, deliveryId } = call.params;
  // Accepted: queued again, sent by the outbox worker with the same webhook-id.
  return representationResponse(shownDelivery(await replayWebhookDeliveryFor(call.actor, webhookId, deliveryId)), 202);
}

const webhookId = pathId("webhookId");
const companyIdParameter = {
  name: "companyId",
  in: "query",
  description: "Operators: a company's endpoints instead of the platform's. A company's client: its own id only.",
  schema: text(200),
};

function accepted(operation: Record<string, unknown>): Record<string, unknown> {
  const responses = operation.responses as Record<string, unknown>;
  return {
    ...operation,
    responses: { "202": { description: "Queued", content: json(ref("WebhookDelivery")) }, ...responses },
  };
}

const secured = (access: "read" | "write") => ({
  scopes: access === "read" ? READ : WRITE,
  companyScopes: access === "read" ? COMPANY_READ : COMPANY_WRITE,
});

export const WEBHOOK_ROUTES: readonly ManageRoute[] = [
  {
    method: "GET",
    path: "/manage/v1/webhooks",
    ...secured("read"),
    handle: listWebhooks,
    operation: manageOperation({
      operationId: "listWebhooks",
      summary: "The platform's endpoints (a company's: companyId, or a company's own client), by id",
      parameters: [companyIdParameter],
      page: { item: "Webhook", max: MAX_ENDPOINT_PAGE, default: MAX_ENDPOINT_PAGE },
      notFound: true,
    }),
  },
  {
    method: "POST",
    path: "/manage/v1/webhooks",
    ...secured("write"),
    handle: addWebhook,
    operation: manageOperation({
      operationId: "addWebhook",
      summary: "Adds an endpoint; the answer holds its secret, which is never shown again",
      parameters: [companyIdParameter],
      body: "WebhookDescription",
      created: "WebhookWithSecret",
      notFound: true,
      problems: writeProblems(),
    }),
  },
  {
    method: "GET",
    path: "/manage/v1/webhooks/{webhookId}",
    ...secured("read"),
    handle: getWebhook,
    operation: manageOperation({ operationId: "getWebhook", parameters: [webhookId], ok: "Webhook", notFound: true }),
  },
  {
    method: "PATCH",
    path: "/manage/v1/webhooks/{webhookId}",
    ...secured("write"),
    handle: changeWebhook,
    operation: manageOperation({
      operationId: "changeWebhook",
      summary: "Changes the fields given; enabled: true turns it on again",
      parameters: [webhookId],
      ifMatch: true,
      body: "WebhookChange",
      ok: "Webhook",
      notFound: true,
      problems: writeProblems(),
    }),
  },
  {
    method: "DELETE",
    path: "/manage/v1/webhooks/{webhookId}",
    ...secured("write"),
    handle: deleteWebhook,
    operation: manageOperation({
      operationId: "removeWebhook",
      summary: "Removes the endpoint with its delivery log",
      parameters: [webhookId],
      noContent: true,
      notFound: true,
    }),
  },
  {
    method: "POST",
    path: "/manage/v1/webhooks/{webhookId}/secret",
    ...secured("write"),
    handle: rotateSecret,
    operation: manageOperation({
      operationId: "rotateWebhookSecret",
      summary: "Replaces the secret at once; the answer holds the new one, which is never shown again",
      parameters: [webhookId],
      ok: "WebhookWithSecret",
      notFound: true,
    }),
  },
  {
    method: "GET",
    path: "/manage/v1/webhooks/{webhookId}/deliveries",
    ...secured("read"),
    handle: listDeliveries,
    operation: manageOperation({
      operationId: "listWebhookDeliveries",
      summary: "The delivery log, newest first, with each delivery's last attempt",
      parameters: [webhookId],
      page: { item: "WebhookDelivery", max: MAX_DELIVERY_PAGE, default: 50 },
      notFound: true,
    }),
  },
  {
    method: "POST",
    path: "/manage/v1/webhooks/{webhookId}/deliveries/{deliveryId}/replay",
    ...secured("write"),
    handle: replayDelivery,
    operation: accepted(
      manageOperation({
        operationId: "replayWebhookDelivery",
        summary: "Sends a delivery again, with the same webhook-id; one that waits already is a conflict",
        parameters: [webhookId, pathId("deliveryId")],
        notFound: true,
        problems: ["conflict"],
      }),
    ),
  },
];
