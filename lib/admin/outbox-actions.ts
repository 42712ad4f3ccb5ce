/**
 * What an operator does with the outbox, the same on the outbox page and through /manage/v1/outbox: read it a page at
 * a time (never a body: it may hold a one-time link), queue a failed message again, and send a test mail.
 *
 * Retry: a message failed for good keeps its sealed body only when its kind holds nothing that works once
 * (lib/mail/outbox.ts); such a message is queued again as it was, due now with a fresh count of attempts. A failed
 * invitation, password reset or address confirmation had its body, and its one-time link, erased when it failed: it
 * cannot be sent again (re-rendering it would mean a new link, which is its page's job: invite again, ask for a new
 * reset), and the refusal says so. So does a message sealed under a key SECRET_KEYS no longer lists.
 */
import { OptiGateError } from "@/lib/errors/optigate-error";
import type { Config } from "@/lib/config";
import { DEFAULT_LOCALE } from "@/lib/i18n/locales";
import { parseEmail, parseLanguage } from "@/lib/admin/person-fields";
import { isResendable, openOutboxBody, sealMail } from "@/lib/mail/outbox";
import { renderTestMail } from "@/lib/mail/test-mail";
import { wakeMailDelivery } from "@/lib/mail/mail-delivery";
import type { DataAccess } from "@/lib/service-context";
import type { ListedOutboxMessage, OutboxPageQuery } from "@/lib/store/outbox-store";

export class OutboxActionError extends OptiGateError<"not_found" | "invalid_state"> {
  constructor(
    readonly code: "not_found" | "invalid_state",
    message: string,
    /** why, for the page's sentence: the message is not failed, its one-time link is gone, or its body is */
    readonly reason?: "not_failed" | "one_time_link" | "erased",
  ) {
    super(message);
  }
}

/** A message as an operator lists it: its envelope and state, never its body. */
export interface OutboxListing extends Omit<ListedOutboxMessage, "sealedBody"> {
  /** failed, with a body that can be queued again */
  resendable: boolean;
}

type OutboxContext = DataAccess & { config: Pick<Config, "secretKey" | "publicUrl"> };

/** The kinds whose mail carries a one-time link, named so in a refusal. */
const ONE_TIME_LINK_KINDS = new Set(["invitation", "password_reset", "email_confirm"]);

const outboxListing = ({ sealedBody, ...message }: ListedOutboxMessage): OutboxListing => ({
  ...message,
  resendable: message.status === "failed" && sealedBody !== null,
});

/** A page of the outbox, newest first. */
export async function outboxPage(context: DataAccess, query: OutboxPageQuery): Promise<OutboxListing[]> {
  return (await context.stores.outbox.page(query)).map(outboxListing);
}

function canOpen(secretKey: string, sealedBody: string): boolean {
  try {
    openOutboxBody(secretKey, sealedBody);
    return true;
  } catch {
    return false;
  }
}

/** Queues a failed message again (see the module's header for which can be); the message as it is now. */
export async function retryMail(context: OutboxContext, messageId: string, by?: string): Promise<OutboxListing> {
  const message = await context.stores.outbox.find(messageId);
  if (!message) throw new OutboxActionError("not_found", `there is no message "${messageId.slice(0, 80)}"`);
  if (message.status !== "failed")
    throw new OutboxActionError(
      "invalid_state",
      `message "${messageId}" is ${message.status}, not failed: only failed mail is sent again`,
      "not_failed",
    );
  if (message.sealedBody === null || !isResendable(message.kind))
    throw ONE_TIME_LINK_KINDS.has(message.kind)
      ? new OutboxActionError(
          "invalid_state",
          `message "${messageId}" (${message.kind}) held a one-time link, erased when its delivery failed: it cannot ` +
            "be sent again; send a new one from its page (invite again, ask for a new link)",
          "one_time_link",
        )
      : new OutboxActionError(
          "invalid_state",
          `message "${messageId}" (${message.kind}) has no text any more: it was erased when its delivery failed`,
          "erased",
        );
  if (!canOpen(context.config.secretKey, message.sealedBody))
    throw new OutboxActionError(
      "invalid_state",
      `message "${messageId}" is sealed under a key SECRET_KEYS no longer lists: it cannot be read or sent`,
      "erased",
    );
  const audit = { type: "mail.retried", userId: by, details: { messageId, kind: message.kind } } as const;
  if (!(await context.stores.outbox.requeue(messageId, message.sealedBody, new Date(), audit)))
    throw new OutboxActionError("invalid_state", `message "${messageId}" changed meanwhile: look at it again`);
  wakeMailDelivery();
  return outboxListing((await context.stores.outbox.find(messageId))!);
}

/** Queues a test mail to `to` in `language` (English when not given); the message queued. */
export async function queueTestMail(
  context: OutboxContext,
  to: string,
  language: string | undefined,
  by?: string,
): Promise<OutboxListing> {
  const recipient = parseEmail(to);
  const locale = language === undefined ? DEFAULT_LOCALE : parseLanguage(language);
  const content = await renderTestMail(locale, `${context.config.publicUrl}/`);
  const mail = sealMail(context.config.secretKey, { kind: "test_mail", recipient, language: locale, content });
  const id = await context.stores.outbox.queue(mail, new Date(), {
    type: "mail.test_queued",
    userId: by,
    details: { kind: "test_mail" },
  });
  wakeMailDelivery();
  return outboxListing((await context.stores.outbox.find(id))!);
}
