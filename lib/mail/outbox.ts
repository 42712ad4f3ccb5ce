/**
 * Mail as the outbox keeps it, and reading it back. The rendered body is sealed under a key derived from SECRET_KEY:
 * an invitation mail carries a one-time link, which must not lie in the database in the clear.
 */
import { seal, unseal } from "@/lib/crypto/secret-box";
import type { MailContent } from "@/lib/mail/mail-content";
import type { NewOutboxMessage } from "@/lib/store/models/outbox";

export interface OutgoingMail {
  kind: string;
  recipient: string;
  language: string;
  content: MailContent;
}

export type MailBody = Pick<MailContent, "text" | "html">;

/** The mail as an outbox row, its body sealed; stored in the transaction of the change that causes it. */
export function sealMail(secretKey: string, mail: OutgoingMail): NewOutboxMessage {
  const body: MailBody = { text: mail.content.text, html: mail.content.html };
  return {
    kind: mail.kind,
    recipient: mail.recipient,
    language: mail.language,
    subject: mail.content.subject,
    sealedBody: seal(JSON.stringify(body), secretKey, "outbox"),
  };
}

export function openMailBody(secretKey: string, sealedBody: string): MailBody {
  return JSON.parse(unseal(sealedBody, secretKey, "outbox")) as MailBody;
}

/**
 * A mail written when it is delivered rather than when it is queued (a password reset: whether it goes out at all
 * depends on the account, which the request must not reveal by doing more or less work). The row holds the sealed
 * request; the worker's composer for its kind turns it into the mail, or into nothing.
 */
export interface DeferredMail {
  kind: string;
  recipient: string;
  language: string;
  request: Record<string, string>;
}

export function sealDeferredMail(secretKey: string, mail: DeferredMail): NewOutboxMessage {
  return {
    kind: mail.kind,
    recipient: mail.recipient,
    language: mail.language,
    subject: "",
    sealedBody: seal(JSON.stringify({ deferred: mail.request }), secretKey, "outbox"),
  };
}

/** A queued body: the mail itself, or the request of a deferred mail. */
export function openOutboxBody(secretKey: string, sealedBody: string): MailBody | { deferred: Record<string, string> } {
  return JSON.parse(unseal(sealedBody, secretKey, "outbox")) as MailBody | { deferred: Record<string, string> };
}
