/**
 * The outbox as operators read it (/admin/outbox): the newest messages with their delivery state and, while a
 * message is still held, its text, unsealed here for operators only. Without SMTP_URL this is where a newcomer reads
 * the invitation they sent in the demo.
 */
import "server-only";
import { openMailBody } from "@/lib/mail/outbox";
import { requireOperator, type Actor } from "@/lib/rights/actor";
import type { OutboxStatus } from "@/lib/store/outbox-store";

const SHOWN_MESSAGES = 100;

interface OutboxEntry {
  id: string;
  recipient: string;
  subject: string;
  language: string;
  status: OutboxStatus;
  attempts: number;
  createdAt: Date;
  sentAt: Date | null;
  lastError: string | null;
  /** the plain-text body while it is kept; erased once sent */
  text?: string;
}

export interface OutboxView {
  /** whether a mail server is configured, so that the worker sends */
  sending: boolean;
  counts: Record<OutboxStatus, number>;
  messages: OutboxEntry[];
}

/** The message's text, or nothing when it cannot be opened (sealed under an earlier SECRET_KEY). */
function readableText(secretKey: string, sealedBody: string): string | undefined {
  try {
    return openMailBody(secretKey, sealedBody).text;
  } catch {
    return undefined;
  }
}

export async function outboxFor(actor: Actor): Promise<OutboxView> {
  const { context } = requireOperator(actor);
  const [counts, rows] = await Promise.all([context.stores.outbox.count(), context.stores.outbox.list(SHOWN_MESSAGES)]);
  return {
    sending: context.config.mail.smtpUrl !== null,
    counts,
    messages: rows.map(({ sealedBody, kind: _kind, nextAttemptAt: _next, status, ...row }) => ({
      ...row,
      status: status as OutboxStatus,
      ...(sealedBody ? { text: readableText(context.config.secretKey, sealedBody) } : {}),
    })),
  };
}
