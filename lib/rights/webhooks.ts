/**
 * Who may look after webhook endpoints, for the pages and the management API alike: operators and the operator's
 * management clients (manage.webhooks.read|write) the platform's endpoints and any company's; a company's
 * administrators and its own management clients (manage.company.webhooks.read|write) their company's alone, to whom
 * another company's endpoint does not exist (not found). Every function checks it before it reads.
 */
import "server-only";
import { isCompanyAdmin } from "@/lib/rights/company-people";
import { AccessDenied, isOperator, requirePlatformAdmin, requireUser, type Actor } from "@/lib/rights/actor";
import * as registry from "@/lib/admin/webhook-registry";
import { WebhookError, webhookNotFound, type WebhookView } from "@/lib/admin/webhook-registry";
import type { ServiceContext } from "@/lib/service-context";
import type { DeliveryPage, WebhookDelivery, WebhookEndpoint } from "@/lib/store/models/webhook";

export { WebhookError, type WebhookView };
export { WEBHOOK_EVENT_TYPES } from "@/lib/store/models/webhook";

type Access = "read" | "write";

interface WebhookActor {
  context: ServiceContext;
  /** the user who acts, for the audit trail (a management client is named by the API) */
  by?: string;
  /** the company the actor is held to; none for operators */
  company?: string;
}

/** The actor's rights over webhooks, or AccessDenied. */
function webhookActor(actor: Actor, access: Access): WebhookActor {
  if (actor.kind === "manager" && actor.company) {
    if (!actor.scopes.has(`manage.company.webhooks.${access}`)) throw new AccessDenied("forbidden");
    return { context: actor.context, company: actor.company.id };
  }
  if (actor.kind === "manager" || isOperator(actor)) return requirePlatformAdmin(actor, `manage.webhooks.${access}`);
  const user = requireUser(actor);
  if (!isCompanyAdmin(user)) throw new AccessDenied("forbidden");
  return { context: user.context, by: user.session.user.id, company: user.company.id };
}

/** Whose endpoints: the company named (operators), the actor's own company, or the platform's (operators, none named). */
async function ownerFor(who: WebhookActor, companyId: string | undefined): Promise<string | null> {
  if (who.company) {
    if (companyId !== undefined && companyId !== who.company) throw new AccessDenied("forbidden");
    return who.company;
  }
  if (companyId === undefined) return null;
  if (!(await who.context.stores.companies.find(companyId)))
    throw new WebhookError("not_found", `There is no company "${companyId.slice(0, 64)}".`);
  return companyId;
}

/** The endpoint, when the actor may see it; another company's is not found. */
async function endpointFor(who: WebhookActor, id: string): Promise<WebhookEndpoint> {
  const endpoint = await who.context.stores.webhooks.findEndpoint(id);
  if (!endpoint || (who.company !== undefined && endpoint.companyId !== who.company)) throw webhookNotFound(id);
  return endpoint;
}

/** The endpoints of the platform (operators, no company named) or of a company, oldest first. */
export async function webhooksFor(
  actor: Actor,
  companyId?: string,
): Promise<{ companyId: string | null; endpoints: WebhookView[] }> {
  const who = webhookActor(actor, "read");
  const owner = await ownerFor(who, companyId);
  const endpoints = await who.context.stores.webhooks.listEndpoints(owner);
  return { companyId: owner, endpoints: endpoints.map(registry.viewOf) };
}

export async function webhookFor(actor: Actor, id: string): Promise<WebhookView> {
  return registry.viewOf(await endpointFor(webhookActor(actor, "read"), id));
}

/** Adds an endpoint; its secret is in the answer, and nowhere else ever again. */
export async function addWebhookFor(actor: Actor, companyId: string | undefined, input: Record<string, unknown>) {
  const who = webhookActor(actor, "write");
  const owner = await ownerFor(who, companyId);
  return registry.addWebhook(who.context, { companyId: owner, byOperator: !who.company }, input, who.by);
}

/** Changes an endpoint's url, description, events or whether it is on (`enabled: true` clears why it was off). */
export async function changeWebhookFor(actor: Actor, id: string, input: Record<string, unknown>): Promise<WebhookView> {
  const who = webhookActor(actor, "write");
  return registry.changeWebhook(who.context, await endpointFor(who, id), input, !who.company, who.by);
}

/** Turns an endpoint on (clearing why it was off) or off. */
export const setWebhookEnabled = (actor: Actor, id: string, enabled: boolean): Promise<WebhookView> =>
  changeWebhookFor(actor, id, { enabled });

export async function rotateWebhookSecretFor(actor: Actor, id: string) {
  const who = webhookActor(actor, "write");
  return registry.rotateWebhookSecret(who.context, await endpointFor(who, id), who.by);
}

export async function removeWebhookFor(actor: Actor, id: string): Promise<void> {
  const who = webhookActor(actor, "write");
  await registry.removeWebhook(who.context, await endpointFor(who, id), who.by);
}

/** A page of an endpoint's delivery log, newest first (limit + 1 read, to tell whether more follow). */
export async function webhookDeliveriesFor(actor: Actor, id: string, page: DeliveryPage): Promise<WebhookDelivery[]> {
  const who = webhookActor(actor, "read");
  return registry.webhookDeliveries(who.context, await endpointFor(who, id), page);
}

/** Sends a delivery again, with the same webhook-id. */
export async function replayWebhookDeliveryFor(actor: Actor, id: string, deliveryId: string): Promise<WebhookDelivery> {
  const who = webhookActor(actor, "write");
  return registry.replayDelivery(who.context, await endpointFor(who, id), deliveryId, who.by);
}
