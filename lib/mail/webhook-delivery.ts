/**
 * The outbox transport of webhooks: a claimed message of kind `webhook` names a delivery (its subject); the delivery's
 * payload is POSTed to its endpoint, signed as Standard Webhooks says, through the outbound rules (https, public
 * addresses; an operator's endpoint may reach OUTBOUND_ALLOW's ranges), waiting WEBHOOK_TIMEOUT_MS and reading
 * nothing of the answer but its status. A 2xx is delivered; anything else is tried again with a growing pause until
 * WEBHOOK_RETRY_WINDOW_SECONDS after it was queued, then the delivery failed, its endpoint turned off and its owners
 * mailed in their languages. Every attempt is written to the delivery log.
 */
import { NO_ADDRESS_RANGES } from "@/lib/config/address-ranges";
import {
  MAX_WEBHOOK_ERROR_LENGTH,
  WEBHOOK_FIRST_RETRY_SECONDS,
  WEBHOOK_LONGEST_RETRY_SECONDS,
  WEBHOOK_RETRY_WINDOW_SECONDS,
  WEBHOOK_TIMEOUT_MS,
} from "@/lib/config/policy";
import { unseal } from "@/lib/crypto/secret-box";
import { webhookHeaders } from "@/lib/crypto/webhook-signature";
import { outboundRequest, NonPublicAddress } from "@/lib/http/outbound-request";
import { isFetchableScheme } from "@/lib/http/url-policy";
import { adminWebhookPage, PAGES } from "@/lib/http/paths";
import { localeOr } from "@/lib/i18n/locales";
import { sealMail } from "@/lib/mail/outbox";
import type { OutboxTransport, TransportOutcome } from "@/lib/mail/outbox-transport";
import { renderWebhookDisabledMail, WEBHOOK_DISABLED_MAIL } from "@/lib/mail/webhook-mail";
import type { ServiceContext } from "@/lib/service-context";
import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from "@/lib/store/models/webhook";
import type { NewOutboxMessage } from "@/lib/store/models/outbox";

type WebhookContext = Pick<ServiceContext, "config" | "stores">;

/** The pause after the `attempts`-th attempt of a series: 30 s, doubling, at most 4 h. */
const webhookRetrySeconds = (attempts: number): number =>
  Math.min(WEBHOOK_FIRST_RETRY_SECONDS * 2 ** Math.max(0, attempts - 1), WEBHOOK_LONGEST_RETRY_SECONDS);

const bounded = (text: string) => text.slice(0, MAX_WEBHOOK_ERROR_LENGTH);

function failureText(error: unknown, url: URL, signal: AbortSignal): string {
  if (signal.aborted) return `no answer within ${WEBHOOK_TIMEOUT_MS} ms`;
  if (error instanceof NonPublicAddress) return `${url.host} is not at a public address (${error.message})`;
  const cause = error as NodeJS.ErrnoException | undefined;
  return `${url.host} could not be reached (${cause?.code ?? cause?.message})`;
}

/** One POST; its status (the answer's body is never read) or why no answer came. */
async function post(
  context: WebhookContext,
  endpoint: WebhookEndpoint,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number | null; error: string | null }> {
  const url = new URL(endpoint.url);
  if (!isFetchableScheme(url, context.config.production)) return { status: null, error: `${url.host} is not https` };
  const signal = AbortSignal.timeout(WEBHOOK_TIMEOUT_MS);
  try {
    const response = await outboundRequest(url, {
      method: "POST",
      signal,
      body,
      headers: {
        ...headers,
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(body)),
        "user-agent": "OptiGate-Webhooks/1",
      },
      publicOnly: true,
      // A company's endpoint never reaches into the operator's network; an operator's may, as OUTBOUND_ALLOW says.
      allowed: endpoint.registeredByOperator ? context.config.outboundAllow : NO_ADDRESS_RANGES,
    });
    response.destroy();
    const status = response.statusCode ?? 0;
    return { status, error: status >= 200 && status < 300 ? null : `answered ${status}` };
  } catch (error) {
    return { status: null, error: bounded(failureText(error, url, signal)) };
  }
}

async function attempt(
  context: WebhookContext,
  { delivery, endpoint }: { delivery: WebhookDelivery; endpoint: WebhookEndpoint },
  now: Date,
): Promise<WebhookAttempt> {
  let secret: string;
  try {
    secret = unseal(endpoint.secretSealed, context.config.secretKey, "webhook-secret");
  } catch {
    return { at: now, delivered: false, status: null, error: "the secret cannot be opened (SECRET_KEYS changed)" };
  }
  const outcome = await post(
    context,
    endpoint,
    webhookHeaders(secret, delivery.id, now, delivery.payload),
    delivery.payload,
  );
  return { at: now, delivered: outcome.error === null, ...outcome };
}

/** The mail to the endpoint's owners, each in their language. */
async function disabledMail(
  context: WebhookContext,
  endpoint: WebhookEndpoint,
  lastError: string,
): Promise<NewOutboxMessage[]> {
  const owners = await context.stores.webhooks.ownersOf(endpoint.companyId);
  const page = `${context.config.publicUrl}${endpoint.companyId ? PAGES.company : adminWebhookPage(endpoint.id)}`;
  const hours = WEBHOOK_RETRY_WINDOW_SECONDS / 3600;
  return Promise.all(
    owners.map(async ({ email, preferredLanguage }) => {
      const language = localeOr(preferredLanguage);
      const content = await renderWebhookDisabledMail(language, {
        endpoint: endpoint.url,
        description: endpoint.description,
        hours,
        lastError,
        url: page,
      });
      return sealMail(context.config.secretKey, { kind: WEBHOOK_DISABLED_MAIL, recipient: email, language, content });
    }),
  );
}

/** The transport for the outbox worker. */
export function webhookTransport(context: WebhookContext): OutboxTransport {
  const webhooks = context.stores.webhooks;
  return async (message, now): Promise<TransportOutcome> => {
    const found = await webhooks.toSend(message.subject);
    // The endpoint was removed with its deliveries: nothing is left to send.
    if (!found) return { outcome: "dropped" };
    // Delivered or failed meanwhile (a replay's message and an older one raced): this message has nothing left to do.
    if (found.delivery.status !== "queued") return { outcome: "sent" };
    if (!found.endpoint.enabled) {
      const error = "the endpoint is turned off";
      await webhooks.giveUp(found.delivery.id, { at: now, delivered: false, status: null, error }, error, []);
      return { outcome: "failed", reason: error };
    }
    const result = await attempt(context, found, now);
    if (result.delivered) {
      await webhooks.recordAttempt(found.delivery.id, result);
      return { outcome: "sent" };
    }
    const reason = result.error ?? "not delivered";
    const windowEnd = found.delivery.queuedAt.getTime() + WEBHOOK_RETRY_WINDOW_SECONDS * 1000;
    if (now.getTime() >= windowEnd) {
      const why = bounded(`no delivery for ${WEBHOOK_RETRY_WINDOW_SECONDS / 3600} hours; the last attempt: ${reason}`);
      await webhooks.giveUp(found.delivery.id, result, why, await disabledMail(context, found.endpoint, reason));
      return { outcome: "failed", reason };
    }
    await webhooks.recordAttempt(found.delivery.id, result);
    const next = Math.min(now.getTime() + webhookRetrySeconds(message.attempts) * 1000, windowEnd);
    return { outcome: "retry", reason, at: new Date(next) };
  };
}
