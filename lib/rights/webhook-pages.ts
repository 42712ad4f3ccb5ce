/**
 * What the webhook pages show, read through the rights functions of lib/rights/webhooks.ts: the operator's list of
 * the platform's endpoints and one endpoint's page (operators only: a company administrator, whom those functions
 * would give their own company's, gets nothing here), and the company page's section (that company's administrators;
 * none for operators, whose endpoints are on /admin/webhooks). Each endpoint comes with a page of its delivery log,
 * newest first; `older` is the position after which the page begins, as the page's link carries it.
 */
import "server-only";
import { isOperator, requireOperator, type Actor } from "@/lib/rights/actor";
import {
  WEBHOOK_EVENT_TYPES,
  WebhookError,
  webhookDeliveriesFor,
  webhookFor,
  webhooksFor,
  type WebhookView,
} from "@/lib/rights/webhooks";
import type { WebhookDelivery } from "@/lib/store/models/webhook";

export type { WebhookDelivery, WebhookView };

export interface DeliveryLogPage {
  deliveries: WebhookDelivery[];
  /** the position of the next, older page; none when this page holds the oldest */
  older?: string;
  /** whether this is a later page than the newest */
  paged: boolean;
}

export interface WebhookPanel {
  endpoint: WebhookView;
  log: DeliveryLogPage;
}

const OPERATOR_PAGE_SIZE = 20;
const COMPANY_PAGE_SIZE = 10;

/** A position in the log: the delivery's creation time (ms) and its id, which `msg_…` ids keep free of dots. */
const positionOf = (delivery: WebhookDelivery) => `${delivery.createdAt.getTime()}.${delivery.id}`;

function positionFrom(text: string | undefined): { createdAt: Date; id: string } | undefined {
  const match = /^(\d{1,15})\.([\w-]{1,100})$/.exec(text ?? "");
  return match ? { createdAt: new Date(Number(match[1])), id: match[2] } : undefined;
}

/** A page of the endpoint's log; a position that names none begins at the newest. */
async function deliveryLog(actor: Actor, id: string, older: string | undefined, limit: number) {
  const after = positionFrom(older);
  const found = await webhookDeliveriesFor(actor, id, { limit, after });
  const deliveries = found.slice(0, limit);
  return {
    deliveries,
    older: found.length > limit ? positionOf(deliveries[deliveries.length - 1]) : undefined,
    paged: after !== undefined,
  };
}

/** The platform's endpoints, for /admin/webhooks. */
export async function platformWebhooksView(actor: Actor) {
  requireOperator(actor);
  const { endpoints } = await webhooksFor(actor);
  return { endpoints, events: WEBHOOK_EVENT_TYPES };
}

/** One endpoint with a page of its log, for the operator; undefined when there is none of that id. */
export async function operatorWebhookView(
  actor: Actor,
  id: string,
  older?: string,
): Promise<(WebhookPanel & { events: typeof WEBHOOK_EVENT_TYPES }) | undefined> {
  requireOperator(actor);
  try {
    const endpoint = await webhookFor(actor, id);
    return { endpoint, log: await deliveryLog(actor, id, older, OPERATOR_PAGE_SIZE), events: WEBHOOK_EVENT_TYPES };
  } catch (error) {
    if (error instanceof WebhookError && error.code === "not_found") return undefined;
    throw error;
  }
}

/**
 * The company page's section: the company's endpoints, each with the newest page of its log, or the page `log` names
 * for one of them. Null for operators; anyone but the company's administrators is refused.
 */
export async function companyWebhooksView(
  actor: Actor,
  log?: { endpointId?: string; older?: string },
): Promise<{ endpoints: WebhookPanel[]; events: typeof WEBHOOK_EVENT_TYPES } | null> {
  if (isOperator(actor)) return null;
  const { endpoints } = await webhooksFor(actor);
  const panels: WebhookPanel[] = await Promise.all(
    endpoints.map(async (endpoint) => ({
      endpoint,
      log: await deliveryLog(
        actor,
        endpoint.id,
        log?.endpointId === endpoint.id ? log.older : undefined,
        COMPANY_PAGE_SIZE,
      ),
    })),
  );
  return { endpoints: panels, events: WEBHOOK_EVENT_TYPES };
}
