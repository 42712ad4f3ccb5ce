/**
 * Webhook endpoints as their owners keep them, the rules shared by the pages and the management API: adding one
 * makes its Standard Webhooks secret, which is shown once and kept sealed; a new secret replaces the old at once;
 * turning an endpoint on clears why it was off; a delivery is replayed (same webhook-id) only to an endpoint that is
 * on and only when it does not wait already. Who may do it is checked in lib/rights/webhooks.ts.
 */
import { randomBytes } from "node:crypto";
import { MAX_WEBHOOK_ENDPOINTS } from "@/lib/config/policy";
import type { AddressRanges } from "@/lib/config/address-ranges";
import { seal } from "@/lib/crypto/secret-box";
import { newWebhookSecret } from "@/lib/crypto/webhook-signature";
import { parseNewWebhook, parseWebhookChange, WebhookError, type WebhookUrlRules } from "@/lib/admin/webhook-metadata";
import type { DeliveryPage, WebhookDelivery, WebhookEndpoint } from "@/lib/store/models/webhook";
import type { Stores } from "@/lib/store/stores";

export { WebhookError };

/** An endpoint as its owners see it: everything but its sealed secret. */
export type WebhookView = Omit<WebhookEndpoint, "secretSealed">;

export const viewOf = ({ secretSealed: _sealed, ...view }: WebhookEndpoint): WebhookView => view;

export interface WebhookRegistryContext {
  stores: Pick<Stores, "webhooks">;
  config: { secretKey: string; production: boolean; outboundAllow: AddressRanges };
}

const newEndpointId = () => `ep_${randomBytes(12).toString("base64url")}`;

const urlRules = ({ config }: WebhookRegistryContext, byOperator: boolean): WebhookUrlRules => ({
  production: config.production,
  outboundAllow: config.outboundAllow,
  byOperator,
});

export const webhookNotFound = (id: string) =>
  new WebhookError("not_found", `There is no webhook endpoint "${id.slice(0, 64)}".`);

/** Adds an endpoint for its owner (a company, or the platform: null); the endpoint and its secret, shown once. */
export async function addWebhook(
  context: WebhookRegistryContext,
  owner: { companyId: string | null; byOperator: boolean },
  input: Record<string, unknown>,
  by?: string,
): Promise<{ endpoint: WebhookView; secret: string }> {
  const described = parseNewWebhook(input, urlRules(context, owner.byOperator));
  const secret = newWebhookSecret();
  const added = await context.stores.webhooks.addEndpoint(
    {
      id: newEndpointId(),
      companyId: owner.companyId,
      ...described,
      secretSealed: seal(secret, context.config.secretKey, "webhook-secret"),
      registeredByOperator: owner.byOperator,
    },
    MAX_WEBHOOK_ENDPOINTS,
    new Date(),
    by,
  );
  if (added === "too_many")
    throw new WebhookError("too_many", `An owner keeps at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints.`);
  return { endpoint: viewOf(added), secret };
}

/** Changes the fields given (url, description, events, enabled). */
export async function changeWebhook(
  context: WebhookRegistryContext,
  endpoint: WebhookEndpoint,
  input: Record<string, unknown>,
  byOperator: boolean,
  by?: string,
): Promise<WebhookView> {
  const change = parseWebhookChange(input, urlRules(context, byOperator));
  const changed = await context.stores.webhooks.updateEndpoint(endpoint.id, change, new Date(), by);
  if (!changed) throw webhookNotFound(endpoint.id);
  return viewOf(changed);
}

/** A new secret in place of the old, which stops signing at once; the new one, shown once. */
export async function rotateWebhookSecret(
  context: WebhookRegistryContext,
  endpoint: WebhookEndpoint,
  by?: string,
): Promise<{ endpoint: WebhookView; secret: string }> {
  const secret = newWebhookSecret();
  const sealed = seal(secret, context.config.secretKey, "webhook-secret");
  const changed = await context.stores.webhooks.replaceSecret(endpoint.id, sealed, new Date(), by);
  if (!changed) throw webhookNotFound(endpoint.id);
  return { endpoint: viewOf(changed), secret };
}

export async function removeWebhook(context: WebhookRegistryContext, endpoint: WebhookEndpoint, by?: string) {
  if (!(await context.stores.webhooks.removeEndpoint(endpoint.id, by))) throw webhookNotFound(endpoint.id);
}

/** A page of the endpoint's delivery log, newest first (limit + 1 read). */
export const webhookDeliveries = (context: WebhookRegistryContext, endpoint: WebhookEndpoint, page: DeliveryPage) =>
  context.stores.webhooks.listDeliveries(endpoint.id, page);

/** Queues one of the endpoint's deliveries again, with its webhook-id, so that receivers can tell it is the same. */
export async function replayDelivery(
  context: WebhookRegistryContext,
  endpoint: WebhookEndpoint,
  deliveryId: string,
  by?: string,
): Promise<WebhookDelivery> {
  const notFound = new WebhookError("not_found", `The endpoint has no delivery "${deliveryId.slice(0, 64)}".`);
  const delivery = await context.stores.webhooks.findDelivery(deliveryId);
  if (!delivery || delivery.endpointId !== endpoint.id) throw notFound;
  if (!endpoint.enabled)
    throw new WebhookError("invalid_state", "The endpoint is turned off: turn it on before sending deliveries again.");
  const replayed = await context.stores.webhooks.replay(deliveryId, new Date(), by);
  if (replayed === null) throw notFound;
  if (replayed === "queued") throw new WebhookError("invalid_state", "The delivery waits to be sent already.");
  return replayed;
}
