/**
 * A company's provider signed a person out (POST /login/sso/backchannel-logout, OpenID Connect Back-Channel Logout
 * 1.0). Public: the signed token is the proof. It is routed by its `iss` and `aud` to the providers turned on that are
 * registered with that issuer (an Entra template: filled with the company's tenant) and client id, verified with each
 * one's registration, and accepted once (its `jti`). The sessions signed in through that provider, of the people
 * linked at it for the companies whose registration verified it only, then end as OptiGate's own sign-out ends them:
 * their relying parties are told through their back channel. A verified token is audited, also when no session matched; a refused one is only logged by the caller,
 * as anybody can send one.
 */
import "server-only";
import { OAuthError } from "@/lib/errors/oauth-error";
import { announceBackchannelLogout } from "@/lib/oauth/endsession/channel-logout";
import { logoutTokenAddressee, logoutTokenRefused, verifyLogoutToken } from "@/lib/oauth/company-sso/logout-token";
import { companySsoConfigOf } from "@/lib/oauth/company-sso/stored-config";
import { issuerForTenant } from "@/lib/oauth/company-sso/tenant-issuer";
import type { ServiceContext } from "@/lib/service-context";
import type { CompanySso } from "@/lib/store/models/company-sso";

/** The providers whose ID tokens `issuer` signs and that OptiGate knows as one of `audience`. */
async function providersOf(context: ServiceContext, issuer: string, audience: string[]): Promise<CompanySso[]> {
  const candidates = await context.stores.companySso.enabledForIssuer(issuer);
  return candidates.filter(
    (sso) => issuerForTenant(sso.issuer, sso.tenantId ?? "") === issuer && audience.includes(sso.clientId),
  );
}

/**
 * The companies whose registration verifies the token, in the candidates' order, and the logout it asks for; else the
 * first refusal. Each registration is tried: another company's registration of the same issuer and client id (perhaps
 * one that cannot reach the provider) must not stand in for the provider's own.
 */
async function verifiedFor(context: ServiceContext, providers: CompanySso[], logoutToken: string, now: Date) {
  // At once, not one by one: a provider that is slow to answer delays the others by its own wait only.
  const outcomes = await Promise.allSettled(
    providers.map(async (sso) =>
      verifyLogoutToken(await companySsoConfigOf(sso, context), logoutToken, context.config, +now),
    ),
  );
  const failed = outcomes.flatMap((outcome) => (outcome.status === "rejected" ? [outcome.reason as unknown] : []));
  const unexpected = failed.find((error) => !(error instanceof OAuthError));
  if (unexpected !== undefined) throw unexpected;
  const verified = outcomes.flatMap((outcome, at) =>
    outcome.status === "fulfilled" ? [{ companyId: providers[at].companyId, logout: outcome.value }] : [],
  );
  if (verified.length === 0) throw failed[0];
  return { companyIds: verified.map((each) => each.companyId), logout: verified[0].logout };
}

/** Ends what the logout token asks to end; throws invalid_request (OAuthError) when the token is refused. */
export async function endUpstreamSessions(
  context: ServiceContext,
  logoutToken: string,
  client: { ipAddress?: string },
  now = new Date(),
): Promise<void> {
  const { issuer, audience } = logoutTokenAddressee(logoutToken);
  const providers = await providersOf(context, issuer, audience);
  // Several companies may use one client at a shared issuer (Google's): the same keys verify the token for each.
  if (providers.length === 0) throw logoutTokenRefused("no company's provider has this issuer and client id");
  const { companyIds, logout } = await verifiedFor(context, providers, logoutToken, now);
  const { jti, acceptedUntil, ...loggedOut } = logout;
  const use = { kind: "logout", signer: loggedOut.issuer, jti, exp: acceptedUntil } as const;
  if (!(await context.stores.usedAssertions.recordUse(use, now))) throw logoutTokenRefused("its jti was used before");
  const ended = await context.stores.loginSessions.endUpstream({ ...loggedOut, companyIds }, now);
  const sessionIds = ended.map((session) => session.id);
  await announceBackchannelLogout(context, sessionIds);
  // A logout token names one person; their user goes with the event (sessions of several: none).
  const users = [...new Set(ended.map((session) => session.userId))];
  await context.stores.audit.record({
    type: "company.sso_logout",
    userId: users.length === 1 ? users[0] : undefined,
    companyId: companyIds.length === 1 ? companyIds[0] : undefined,
    ipAddress: client.ipAddress,
    details: { companyIds, ...loggedOut, sessionIds },
  });
}
