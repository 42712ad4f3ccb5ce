/**
 * The work that runs on a schedule: expired rows purged and vendors told of secrets that expire soon (the Node
 * server every PURGE_INTERVAL_MS, a cron route where only Next.js serves), and the mail outbox delivered once (a
 * cron route; the Node server's worker runs all the time).
 */
import { announceExpiringSecrets } from "@/lib/admin/partner-notices";
import { mailComposers } from "@/lib/server/mail-composers";
import { smtpOutboxWorker } from "@/lib/mail/mail-delivery";
import type { ServiceContext } from "@/lib/service-context";
import type { PurgeCounts } from "@/lib/store/expired-rows-store";

export async function purgeAndAnnounce(context: ServiceContext): Promise<{ purged: PurgeCounts; notices: number }> {
  const purged = await context.stores.maintenance.purgeExpired();
  return { purged, notices: await announceExpiringSecrets(context) };
}

/** Sends what is due now; undefined without SMTP_URL. */
export async function deliverDueMail(context: ServiceContext): Promise<number | undefined> {
  const worker = smtpOutboxWorker(context.config, context.stores.outbox, mailComposers(context));
  if (!worker) return undefined;
  try {
    return await worker.deliverDue();
  } finally {
    await worker.stop();
  }
}
