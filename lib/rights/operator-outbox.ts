/**
 * The outbox as operators read and act on it (/admin/outbox, /manage/v1/outbox): the newest messages with their
 * delivery state and, for the page, while a message is still held, its text, unsealed here for operators only
 * (without SMTP_URL this is where a newcomer reads the invitation they sent in the demo; the API never shows a body).
 * Queuing a failed message again and sending a test mail go through lib/admin/outbox-actions.ts for both.
 */
import "server-only";
import { openMailBody } from "@/lib/mail/outbox";
import { outboxPage, queueTestMail, retryMail, type OutboxListing } from "@/lib/admin/outbox-actions";
import { requirePlatformAdmin, requirePlatformReader, type Actor } from "@/lib/rights/actor";
import type { OutboxPageQuery, OutboxStatus } from "@/lib/store/outbox-store";

export { OutboxActionError, type OutboxListing } from "@/lib/admin/outbox-actions";
export { PersonFieldError } from "@/lib/admin/person-fields";

const SCOPES = { read: "manage.outbox.read", write: "manage.outbox.write" };
const WRITE = SCOPES.write;
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
  /** failed, and can be queued again */
  resendable: boolean;
}

export interface OutboxView {
  /** whether a mail server is configured, so that the worker sends */
  sending: boolean;
  /** where a mail catcher behind that server shows the mail sent (MAIL_CATCHER_URL), for the page to link */
  catcherUrl: string | null;
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
  const { context } = requirePlatformReader(actor, SCOPES);
  const [counts, rows] = await Promise.all([context.stores.outbox.count(), context.stores.outbox.list(SHOWN_MESSAGES)]);
  return {
    sending: context.config.mail.smtpUrl !== null,
    catcherUrl: context.config.mail.catcherUrl,
    counts,
    messages: rows.map(({ sealedBody, kind: _kind, nextAttemptAt: _next, status, ...row }) => ({
      ...row,
      status: status as OutboxStatus,
      resendable: status === "failed" && sealedBody !== null,
      ...(sealedBody ? { text: readableText(context.config.secretKey, sealedBody) } : {}),
    })),
  };
}

/** A page of the outbox, newest first, without bodies. */
export async function outboxPageFor(actor: Actor, query: OutboxPageQuery): Promise<OutboxListing[]> {
  const { context } = requirePlatformReader(actor, SCOPES);
  return outboxPage(context, query);
}

/** Queues a failed message again, when it still has its text. */
export async function retryMailFor(actor: Actor, messageId: string): Promise<OutboxListing> {
  const { context, by } = requirePlatformAdmin(actor, WRITE);
  return retryMail(context, messageId, by);
}

/** Queues a test mail to the address, in the language given (English without one). */
export async function sendTestMailFor(actor: Actor, to: string, language?: string): Promise<OutboxListing> {
  const { context, by } = requirePlatformAdmin(actor, WRITE);
  return queueTestMail(context, to, language, by);
}
