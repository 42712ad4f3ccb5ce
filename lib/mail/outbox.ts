/**
 * Mail as the outbox keeps it, and reading it back. The rendered body is sealed under a key derived from SECRET_KEY:
 * an invitation mail carries a one-time link, which must not lie in the database in the clear.
 */
import { deriveKey, seal, unseal } from "@/lib/crypto/secret-box";
import type { MailContent } from "@/lib/mail/mail-content";
import type { NewOutboxMessage } from "@/lib/store/outbox-store";

export interface OutgoingMail {
  kind: string;
  recipient: string;
  language: string;
  content: MailContent;
}

export type MailBody = Pick<MailContent, "text" | "html">;

const outboxKey = (secretKey: string) => deriveKey(secretKey, "outbox");

/** The mail as an outbox row, its body sealed; stored in the transaction of the change that causes it. */
export function sealMail(secretKey: string, mail: OutgoingMail): NewOutboxMessage {
  const body: MailBody = { text: mail.content.text, html: mail.content.html };
  return {
    kind: mail.kind,
    recipient: mail.recipient,
    language: mail.language,
    subject: mail.content.subject,
    sealedBody: seal(JSON.stringify(body), outboxKey(secretKey)),
  };
}

export function openMailBody(secretKey: string, sealedBody: string): MailBody {
  return JSON.parse(unseal(sealedBody, outboxKey(secretKey))) as MailBody;
}
