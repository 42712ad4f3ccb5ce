/**
 * The scheduled work as URLs, for platforms whose scheduler can only call one (Vercel Cron, Kubernetes CronJobs with
 * curl): /api/cron/purge and /api/cron/outbox, by POST or by GET (Vercel Cron's method), each with
 * `Authorization: Bearer <CRON_SECRET>`. Without CRON_SECRET every call is refused, as is any other token (401); the
 * server log says why.
 */
import { bearerMatches } from "@/lib/http/bearer-matches";
import { logger } from "@/lib/observability/logger";
import { deliverDueMail, purgeAndAnnounce } from "@/lib/server/scheduled-work";
import type { ServiceContext } from "@/lib/service-context";
import { flushAllActivity } from "@/lib/store/activity-tally";

const NO_STORE = { "Cache-Control": "no-store" };

/** The same answer whether CRON_SECRET is set or not: a caller without it learns nothing of the configuration. */
function refusal(): Response {
  return Response.json(
    { error: "unauthorized", error_description: "send Authorization: Bearer with the deployment's CRON_SECRET" },
    { status: 401, headers: { ...NO_STORE, "WWW-Authenticate": 'Bearer realm="OptiGate cron"' } },
  );
}

function authorized(request: Request, { config }: ServiceContext): boolean {
  if (config.cronSecret === null) {
    logger.warn({ path: new URL(request.url).pathname }, "cron: refused a call: CRON_SECRET is not set");
    return false;
  }
  return bearerMatches(request, config.cronSecret);
}

export async function handleCronPurge(request: Request, context: ServiceContext): Promise<Response> {
  if (!authorized(request, context)) return refusal();
  const { purged, notices } = await purgeAndAnnounce(context);
  logger.info({ purged, secretExpiryNotices: notices }, "cron: purge");
  return Response.json({ purged, secretExpiryNotices: notices }, { headers: NO_STORE });
}

export async function handleCronOutbox(request: Request, context: ServiceContext): Promise<Response> {
  if (!authorized(request, context)) return refusal();
  // Where no process lives between requests, the counts of the last ones are written here, once a minute.
  await flushAllActivity();
  const sent = await deliverDueMail(context);
  if (sent === undefined)
    return Response.json(
      { error: "mail_not_configured", error_description: "SMTP_URL is not set: mail stays in the outbox" },
      { status: 503, headers: NO_STORE },
    );
  logger.info({ sent }, "cron: outbox");
  return Response.json({ sent }, { headers: NO_STORE });
}
