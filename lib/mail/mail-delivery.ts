/**
 * The outbox worker of this process (one, shared by the Next.js bundle and the lean front through processCache):
 * started with the server when SMTP_URL is set (instrumentation.ts), woken when a request queued mail, stopped on
 * shutdown. Without SMTP_URL mail stays in the outbox for /admin/outbox; in production that is said once at start.
 */
import { processCache } from "@/lib/observability/process-cache";
import type { Config } from "@/lib/config";
import type { OutboxStore } from "@/lib/store/outbox-store";
import { createOutboxWorker, type MailComposer, type OutboxWorker } from "@/lib/mail/outbox-worker";
import type { OutboxTransport } from "@/lib/mail/outbox-transport";
import { smtpSender } from "@/lib/mail/smtp-sender";
import { logger } from "@/lib/observability/logger";

const delivery = processCache("mail-delivery", () => ({
  worker: undefined as OutboxWorker | undefined,
  started: false,
}));

/**
 * A worker sending mail through SMTP_URL and the other kinds through their transports (webhooks); without SMTP_URL
 * it sends those kinds only, and without either it is undefined.
 */
export function smtpOutboxWorker(
  config: Config,
  outbox: OutboxStore,
  composers: Record<string, MailComposer>,
  transports: Record<string, OutboxTransport> = {},
): OutboxWorker | undefined {
  if (!config.mail.smtpUrl && Object.keys(transports).length === 0) return undefined;
  return createOutboxWorker({
    outbox,
    secretKey: config.secretKey,
    sender: config.mail.smtpUrl ? smtpSender(config.mail.smtpUrl, config.mail.mailFrom) : undefined,
    composers,
    transports,
    onUndelivered: (messageId, reason, failed) =>
      logger.warn({ outboxMessage: messageId, reason, failed }, failed ? "mail failed" : "mail not sent yet"),
    onError: (error) => logger.error({ err: error }, "outbox delivery stopped for now"),
  });
}

export function startMailDelivery(
  config: Config,
  outbox: OutboxStore,
  composers: Record<string, MailComposer> = {},
  transports: Record<string, OutboxTransport> = {},
): void {
  if (delivery.started) return;
  delivery.started = true;
  delivery.worker = smtpOutboxWorker(config, outbox, composers, transports);
  if (!config.mail.smtpUrl && config.production)
    logger.warn("SMTP_URL is not set: mail is kept in the outbox and not sent");
  delivery.worker?.start();
}

/** After a change queued mail: deliver it now rather than at the next poll. */
export function wakeMailDelivery(): void {
  delivery.worker?.wake();
}

export async function stopMailDelivery(): Promise<void> {
  const worker = delivery.worker;
  delivery.worker = undefined;
  delivery.started = false;
  await worker?.stop();
}
