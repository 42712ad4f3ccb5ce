/**
 * Combined sign-out: every client a session signed in to is told that the session ended, if it registered how.
 * Back-channel (OpenID Connect Back-Channel Logout 1.0): a signed logout token POSTed server to server, waited for at
 * most BACKCHANNEL_TIMEOUT_MS per client. Front-channel (Front-Channel Logout 1.0): a page that loads each client's
 * URI in an invisible iframe, with `iss` and `sid`, then continues to where sign-out leads.
 */
import { BACKCHANNEL_TIMEOUT_MS } from "@/lib/config/policy";
import { logger } from "@/lib/observability/logger";
import { escapeHtml } from "@/lib/http/html";
import { outboundRequest } from "@/lib/http/outbound-request";
import { htmlPage } from "@/lib/http/page-security-headers";
import { signLogoutToken } from "@/lib/oauth/token/jwt-tokens";
import type { ServiceContext } from "@/lib/service-context";
import { clientOutboundAllow } from "@/lib/oauth/clients/client-outbound-allow";
import type { ClientOwner } from "@/lib/store/models/client";

interface LogoutTarget extends ClientOwner {
  clientId: string;
  sessionId: string;
  userId: string;
  frontchannelLogoutUri: string | null;
  backchannelLogoutUri: string | null;
  /** Logout tokens are signed like the client's ID tokens (Back-Channel Logout 1.0 §2.4). */
  idTokenSignedResponseAlg: string | null;
}

/** The clients the given sessions signed in to that registered a logout URI. */
async function logoutTargets(context: ServiceContext, sessionIds: string[]): Promise<LogoutTarget[]> {
  if (sessionIds.length === 0) return [];
  const rows = await context.stores.loginSessions.listClients(sessionIds);
  const clients = await context.stores.clients.logoutUris([...new Set(rows.map((r) => r.clientId))]);
  const byId = new Map(clients.map((c) => [c.id, c]));
  return rows.flatMap((row) => {
    const client = byId.get(row.clientId);
    return client
      ? [
          {
            clientId: client.id,
            sessionId: row.sessionId,
            userId: row.userId,
            frontchannelLogoutUri: client.frontchannelLogoutUri,
            backchannelLogoutUri: client.backchannelLogoutUri,
            idTokenSignedResponseAlg: client.idTokenSignedResponseAlg,
            ownerCompanyId: client.ownerCompanyId,
          },
        ]
      : [];
  });
}

async function sendBackchannelLogouts(
  context: ServiceContext,
  targets: LogoutTarget[],
  now = new Date(),
): Promise<void> {
  await Promise.allSettled(
    targets
      .filter((target) => target.backchannelLogoutUri)
      .map(async (target) => {
        const logoutToken = await signLogoutToken(context, target, now);
        try {
          // Held to public addresses in production, checked on the address connected to, as key-set fetches are:
          // a partner registers the URI, and its name may resolve anywhere (a vendor's never into OUTBOUND_ALLOW's
          // ranges). Redirects are not followed.
          const response = await outboundRequest(new URL(target.backchannelLogoutUri!), {
            method: "POST",
            headers: { "Content-Type": "application/x-www-form-urlencoded", "Cache-Control": "no-store" },
            body: new URLSearchParams({ logout_token: logoutToken }).toString(),
            signal: AbortSignal.timeout(BACKCHANNEL_TIMEOUT_MS),
            publicOnly: context.config.production,
            allowed: clientOutboundAllow(context.config.outboundAllow, target),
          });
          response.destroy();
          const status = response.statusCode ?? 0;
          if (status < 200 || status > 299)
            logger.warn({ clientId: target.clientId, status }, "back-channel logout answered with an error");
        } catch (error) {
          logger.warn({ clientId: target.clientId, reason: (error as Error).message }, "back-channel logout failed");
        }
      }),
  );
}

function frontchannelUrl(target: LogoutTarget, issuer: string): string {
  const url = new URL(target.frontchannelLogoutUri!);
  url.searchParams.set("iss", issuer);
  url.searchParams.set("sid", target.sessionId);
  return url.toString();
}

/** The page that loads the clients' front-channel logout URIs, then continues to `next`; undefined when none. */
function frontchannelLogoutPage(targets: LogoutTarget[], issuer: string, next: string): Response | undefined {
  const frames = targets.filter((target) => target.frontchannelLogoutUri);
  if (frames.length === 0) return undefined;
  const iframes = frames
    .map(
      (target) =>
        `<iframe src="${escapeHtml(frontchannelUrl(target, issuer))}" title="${escapeHtml(target.clientId)}" width="0" height="0" style="display:none"></iframe>`,
    )
    .join("");
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>OptiGate</title>
<meta http-equiv="refresh" content="3;url=${escapeHtml(next)}"></head>
<body>${iframes}<script>
var pending = ${frames.length};
function done() { if (--pending === 0) location.replace(${JSON.stringify(next)}); }
document.querySelectorAll("iframe").forEach(function (frame) { frame.addEventListener("load", done); });
</script><noscript><a href="${escapeHtml(next)}">Continue</a></noscript></body></html>`;
  return htmlPage(html, 200);
}

/** Tells the clients of sessions ended without a browser present (by the operator) through their back channel. */
export async function announceBackchannelLogout(context: ServiceContext, sessionIds: string[]): Promise<void> {
  await sendBackchannelLogouts(context, await logoutTargets(context, sessionIds));
}

/** Tells the clients of the ending sessions; returns the front-channel page to show instead of `next`, if any. */
export async function announceLogout(
  context: ServiceContext,
  sessionIds: string[],
  next: string,
): Promise<Response | undefined> {
  const targets = await logoutTargets(context, sessionIds);
  await sendBackchannelLogouts(context, targets);
  return frontchannelLogoutPage(targets, context.config.publicUrl, next);
}
