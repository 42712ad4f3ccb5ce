/**
 * Delivers the outbox: claims due messages in batches, sends them concurrently, and marks each sent, to be tried
 * again after a growing pause (30 s, 1 min, 2 min … at most an hour), or failed after a permanent refusal or
 * MAX_ATTEMPTS tries (its body erased unless its kind holds no one-time link: lib/mail/outbox.ts). A claim holds its
 * messages for HOLD_MS; a worker that dies holding them leaves them to be taken again when the claim runs out, so
 * nothing is lost and, unless the crash came between the server's acceptance and the mark, nothing is sent twice.
 * Several processes may run workers on one database. Mail the server accepted and mail given up on are counted for
 * the metrics. Kinds that are not mail (webhooks) are claimed alike and sent by their own transports, which keep their
 * own retry schedule (lib/mail/outbox-transport.ts); a worker without a mail server claims only those.
 */
import { randomUUID } from "node:crypto";
import type { MailContent } from "@/lib/mail/mail-content";
import { isResendable, openOutboxBody } from "@/lib/mail/outbox";
import { deliveryFailure, type MailSender } from "@/lib/mail/smtp-sender";
import { NO_MAIL_SENDER, sendThrough, type OutboxTransport } from "@/lib/mail/outbox-transport";
import type { ClaimedMessage, OutboxStore } from "@/lib/store/outbox-store";
import { metrics } from "@/lib/observability/metrics";

const MAX_ATTEMPTS = 10;
const FIRST_RETRY_MS = 30_000;
const LONGEST_RETRY_MS = 3_600_000;

/** Writes a deferred mail of one kind when it is due: its content, or null when there is nothing to send. */
export type MailComposer = (mail: {
  recipient: string;
  language: string;
  request: Record<string, string>;
}) => Promise<MailContent | null>;

export interface OutboxWorkerOptions {
  outbox: OutboxStore;
  secretKey: string;
  /** the mail server; without one the worker claims only the kinds `transports` send */
  sender?: MailSender;
  /** the composers of deferred mail, by kind */
  composers?: Record<string, MailComposer>;
  /** kinds that are not mail, each sent by its own transport (webhooks) */
  transports?: Record<string, OutboxTransport>;
  /** how long a claim holds its messages: longer than the SMTP time-outs */
  holdMs?: number;
  /** how often an idle worker looks for due messages */
  pollMs?: number;
  batchSize?: number;
  clock?: () => Date;
  /** told of each message that was not delivered (never its body) */
  onUndelivered?: (messageId: string, reason: string, failed: boolean) => void;
  /** told when the outbox could not be read or written (the database is away); the worker tries again later */
  onError?: (error: Error) => void;
}

export interface OutboxWorker {
  /** Delivers everything due now; how many were sent. */
  deliverDue(): Promise<number>;
  /** Runs until stopped: delivers what is due, then waits for the next poll or wake. */
  start(): void;
  /** Looks for due messages now (after a change queued mail in this process). */
  wake(): void;
  /** Finishes the delivery under way and closes the SMTP connections. */
  stop(): Promise<void>;
}

export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);
}

export function createOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const { outbox, secretKey } = options;
  const sender = options.sender ?? NO_MAIL_SENDER;
  const kinds = options.sender ? undefined : Object.keys(options.transports ?? {});
  const holdMs = options.holdMs ?? 120_000;
  const pollMs = options.pollMs ?? 2_000;
  const batchSize = options.batchSize ?? 50;
  const clock = options.clock ?? (() => new Date());
  let running = false;
  let loop: Promise<void> | undefined;
  let wakeUp: (() => void) | undefined;

  /** The mail to send for a claimed body; null for a deferred mail with nothing to send. */
  async function contentOf(message: ClaimedMessage, sealedBody: string): Promise<Omit<MailContent, "subject"> | null> {
    const body = openOutboxBody(secretKey, sealedBody);
    if (!("deferred" in body)) return body;
    const compose = options.composers?.[message.kind];
    if (!compose) throw new Error(`no composer for deferred mail of kind "${message.kind}"`);
    const content = await compose({ recipient: message.recipient, language: message.language, request: body.deferred });
    if (content) message.subject = content.subject;
    return content;
  }

  async function deliver(message: ClaimedMessage): Promise<boolean> {
    const transport = options.transports?.[message.kind];
    if (transport)
      return sendThrough(transport, message, { ...options, clock, retryMs: retryDelayMs(message.attempts) });
    try {
      // A message without a body was sent by a claim that then lost the race to mark it; there is nothing to send.
      if (message.sealedBody) {
        const content = await contentOf(message, message.sealedBody);
        if (!content) {
          await outbox.drop(message);
          return false;
        }
        await sender.send({ to: message.recipient, subject: message.subject, text: content.text, html: content.html });
        metrics.mailSent.inc({ kind: message.kind });
      }
      await outbox.markSent(message, clock());
      return true;
    } catch (error) {
      const failure = deliveryFailure(error);
      const failed = failure.permanent || message.attempts >= MAX_ATTEMPTS;
      const nextAttemptAt = new Date(clock().getTime() + retryDelayMs(message.attempts));
      const keepBody = failed && isResendable(message.kind);
      await outbox.markUndelivered(message, { failed, lastError: failure.reason, nextAttemptAt, keepBody });
      if (failed) metrics.mailFailed.inc({ kind: message.kind });
      options.onUndelivered?.(message.id, failure.reason, failed);
      return false;
    }
  }

  async function deliverDue(): Promise<number> {
    let sent = 0;
    for (;;) {
      const now = clock();
      const claimed = await outbox.claimDue({
        token: randomUUID(),
        limit: batchSize,
        now,
        holdUntil: new Date(now.getTime() + holdMs),
        kinds,
      });
      if (claimed.length === 0) return sent;
      sent += (await Promise.all(claimed.map(deliver))).filter(Boolean).length;
    }
  }

  async function run(): Promise<void> {
    while (running) {
      await deliverDue().catch((error: Error) => options.onError?.(error));
      if (!running) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        timer.unref();
        wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wakeUp = undefined;
    }
  }

  return {
    deliverDue,
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    wake: () => wakeUp?.(),
    async stop() {
      running = false;
      wakeUp?.();
      await loop;
      sender.close();
    },
  };
}
