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

/**
 * The kinds of mail whose text holds nothing that works only once (notices, a vendor's review, a test mail): when
 * their delivery fails for good their sealed body is kept, so that an operator can queue them again (the outbox page,
 * POST /manage/v1/outbox/{id}/retry). Every other kind is erased then, as before: an invitation, a password reset or
 * an address confirmation carries a one-time link that must not lie in the database once it cannot be delivered, and
 * a kind not named here is treated the same.
 */
export const RESENDABLE_MAIL_KINDS = [
  "test_mail",
  "password_changed",
  "password_reset_done",
  "second_factor_changed",
  "second_factors_reset",
  "email_change_notice",
  "email_in_use",
  "application_approved",
  "application_change_approved",
  "application_rejected",
  "secret_expiring",
] as const;
const RESENDABLE_KINDS: ReadonlySet<string> = new Set(RESENDABLE_MAIL_KINDS);

export const isResendable = (kind: string): boolean => RESENDABLE_KINDS.has(kind);

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
