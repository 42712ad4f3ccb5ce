/**
 * Outbox messages that are not mail: a kind with a transport of its own (a webhook's signed POST) is claimed, held and
 * marked by the same outbox machinery, but sent by its transport, which keeps its own log and decides when to try
 * again and when to give up. A worker without a mail server claims only those kinds.
 */
import type { MailSender } from "@/lib/mail/smtp-sender";
import type { ClaimedMessage, OutboxStore } from "@/lib/store/outbox-store";

/**
 * What a transport did with a message: sent, to be tried again at `at`, given up (`failed`), or nothing left to send
 * (`dropped`: the message leaves no trace).
 */
export type TransportOutcome =
  | { outcome: "sent" }
  | { outcome: "dropped" }
  | { outcome: "retry"; reason: string; at: Date }
  | { outcome: "failed"; reason: string };

export type OutboxTransport = (message: ClaimedMessage, now: Date) => Promise<TransportOutcome>;

/** The sender of a worker that has no mail server: it never claims mail, so this is never asked to send. */
export const NO_MAIL_SENDER: MailSender = {
  send: () => Promise.reject(new Error("no mail server is configured")),
  close: () => undefined,
};

/**
 * Sends a claimed message through its transport and marks it; whether it was sent. A transport that throws (its
 * database away) leaves the message to be tried again after `retryMs`.
 */
export async function sendThrough(
  transport: OutboxTransport,
  message: ClaimedMessage,
  worker: {
    outbox: OutboxStore;
    clock: () => Date;
    retryMs: number;
    onUndelivered?: (messageId: string, reason: string, failed: boolean) => void;
  },
): Promise<boolean> {
  const now = worker.clock();
  const result = await transport(message, now).catch((error: unknown): TransportOutcome => ({
    outcome: "retry",
    reason: (error instanceof Error ? error.message : String(error)).slice(0, 500),
    at: new Date(now.getTime() + worker.retryMs),
  }));
  if (result.outcome === "sent") {
    await worker.outbox.markSent(message, worker.clock());
    return true;
  }
  if (result.outcome === "dropped") {
    await worker.outbox.drop(message);
    return false;
  }
  const failed = result.outcome === "failed";
  const nextAttemptAt = result.outcome === "retry" ? result.at : now;
  await worker.outbox.markUndelivered(message, { failed, lastError: result.reason, nextAttemptAt });
  worker.onUndelivered?.(message.id, result.reason, failed);
  return false;
}
