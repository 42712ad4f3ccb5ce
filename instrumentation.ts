/** Runs once when a server process starts (`npm start`, `next start`): the outbox worker begins delivering mail. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getServiceContext } = await import("@/lib/service-context");
  const { startMailDelivery } = await import("@/lib/mail/mail-delivery");
  const { db, config } = getServiceContext();
  startMailDelivery(config, db);
}
