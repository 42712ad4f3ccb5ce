/**
 * The work that runs on a schedule: expired rows, audit events older than AUDIT_RETENTION_DAYS and webhook deliveries
 * older than WEBHOOK_DELIVERY_RETENTION_DAYS purged and vendors told of secrets that expire soon (the Node server
 * every PURGE_INTERVAL_MS, a cron route where only Next.js serves), and the outbox delivered once, mail and webhooks
 * (a cron route; the Node server's worker runs all the time).
 */
import { announceExpiringSecrets } from "@/lib/admin/partner-notices";
import { WEBHOOK_DELIVERY_RETENTION_DAYS } from "@/lib/config/policy";
import { mailComposers, outboxTransports } from "@/lib/server/mail-composers";
import { smtpOutboxWorker } from "@/lib/mail/mail-delivery";
import type { ServiceContext } from "@/lib/service-context";
import type { PurgeCounts } from "@/lib/store/expired-rows-store";
import { flushAllActivity } from "@/lib/store/activity-tally";

export async function purgeAndAnnounce(
  context: ServiceContext,
): Promise<{ purged: PurgeCounts & { webhookDeliveries: number; activityCounts: number }; notices: number }> {
  const { auditRetentionDays } = context.config;
  const purged = await context.stores.maintenance.purgeExpired({ auditRetentionDays });
  const webhookDeliveries = await context.stores.webhooks.purgeDeliveries(
    new Date(Date.now() - WEBHOOK_DELIVERY_RETENTION_DAYS * 86_400_000),
  );
  // The hourly activity is kept as long as the audit trail it sums up; what this process counted goes in first.
  await flushAllActivity();
  const activityCounts = await context.stores.activity.purgeBefore(
    new Date(Date.now() - auditRetentionDays * 86_400_000),
  );
  return {
    purged: { ...purged, webhookDeliveries, activityCounts },
    notices: await announceExpiringSecrets(context),
  };
}

/**
 * Sends what is due now, the mail before the webhooks (whose receivers may keep it waiting up to a timeout a batch);
 * undefined without SMTP_URL (webhooks are delivered all the same).
 */
export async function deliverDueMail(context: ServiceContext): Promise<number | undefined> {
  const transports = outboxTransports(context);
  const worker = smtpOutboxWorker(context.config, context.stores.outbox, mailComposers(context), transports);
  if (!worker) return undefined;
  try {
    const sent = await worker.deliverDue();
    return context.config.mail.smtpUrl ? sent : undefined;
  } finally {
    await worker.stop();
  }
}
