/**
 * The composers of deferred mail, by kind: mail written when it is sent, because what it says depends on the account
 * then (lib/account/password-reset.ts). Every outbox worker gets them: the server's and a scheduled call's.
 */
import { PASSWORD_RESET_MAIL, passwordResetComposer } from "@/lib/account/password-reset";
import type { MailComposer } from "@/lib/mail/outbox-worker";
import type { ServiceContext } from "@/lib/service-context";

export const mailComposers = (context: ServiceContext): Record<string, MailComposer> => ({
  [PASSWORD_RESET_MAIL]: passwordResetComposer(context),
});
