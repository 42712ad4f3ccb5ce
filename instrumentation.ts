/** Runs once when a server process starts (`npm start`, `next start`): the outbox worker begins delivering mail. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getServiceContext } = await import("@/lib/service-context");
  const { startMailDelivery } = await import("@/lib/mail/mail-delivery");
  const { PASSWORD_RESET_MAIL, passwordResetComposer } = await import("@/lib/account/password-reset");
  const context = getServiceContext();
  // A reset mail is written when it is sent: whether there is one depends on the account (lib/account/password-reset).
  startMailDelivery(context.config, context.stores.outbox, { [PASSWORD_RESET_MAIL]: passwordResetComposer(context) });
}
