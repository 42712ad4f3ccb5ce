/**
 * The composers of deferred mail, by kind: mail written when it is sent, because what it says depends on the account
 * then (lib/account/password-reset.ts), and the transports of the outbox's other kinds (webhooks). Every outbox
 * worker gets them: the server's and a scheduled call's.
 */
import { PASSWORD_RESET_MAIL, passwordResetComposer } from "@/lib/account/password-reset";
import type { MailComposer } from "@/lib/mail/outbox-worker";
import type { OutboxTransport } from "@/lib/mail/outbox-transport";
import { webhookTransport } from "@/lib/mail/webhook-delivery";
import { WEBHOOK_OUTBOX_KIND } from "@/lib/store/models/webhook";
import type { ServiceContext } from "@/lib/service-context";

export const mailComposers = (context: ServiceContext): Record<string, MailComposer> => ({
  [PASSWORD_RESET_MAIL]: passwordResetComposer(context),
});

/** The outbox's kinds that are not mail, by kind, each with its transport: webhooks' signed POSTs. */
export const outboxTransports = (context: ServiceContext): Record<string, OutboxTransport> => ({
  [WEBHOOK_OUTBOX_KIND]: webhookTransport(context),
});
