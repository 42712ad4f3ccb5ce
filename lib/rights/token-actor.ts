/**
 * The actor behind a platform API call: the bearer access token, verified (at most 60 s of clock leeway; for the
 * platform API's resource `API_URL` or the default audience, RFC 8707), and its user or client read now. A user who was deactivated or removed, or a client that was removed, makes the token
 * invalid at once; a user moved to another company acts for the new one. The company's customer links come with it,
 * in the same statement (the catalog lists show them). A token bound to a DPoP key needs the DPoP scheme and a proof
 * by that key (lib/oauth/dpop/presented-token.ts).
 */
import { API_CLOCK_LEEWAY_SECONDS } from "@/lib/config/policy";
import "server-only";
import type { TokenActor } from "@/lib/rights/actor";
import { invalidToken } from "@/lib/errors/oauth-error";
import { customerLinksFrom } from "@/lib/catalog/registrations/customer-links";
import { boundKeyOf, noteTokenCaller, verifyAccessToken } from "@/lib/oauth/token/verify-access-token";
import { checkSenderConstraint, type PresentedToken } from "@/lib/oauth/dpop/presented-token";
import type { HeaderReader } from "@/lib/http/protocol-message";
import type { ServiceContext } from "@/lib/service-context";
import { principalOf } from "@/lib/jwt/token-principal";
import { acceptedAudiences } from "@/lib/oauth/resource-indicators";

export async function actorOfAccessToken(
  context: ServiceContext,
  presented: PresentedToken,
  request: { method: string; url: string; headers: HeaderReader },
): Promise<TokenActor> {
  const claims = await verifyAccessToken(context, presented.token, {
    audiences: acceptedAudiences(context.config, "platformApi"),
    leewaySeconds: API_CLOCK_LEEWAY_SECONDS,
  });
  noteTokenCaller(claims);
  await checkSenderConstraint(context, presented, boundKeyOf(claims), request);
  const scopes = new Set(claims.scope.split(" "));
  const principal = principalOf(claims);
  if (principal?.kind === "client") {
    const client = await context.stores.clients.find(claims.client_id);
    if (!client) throw invalidToken("the client of this access token is no longer registered");
    const caller = client.companyId ? await context.stores.apiCallers.ofCompany(client.companyId) : undefined;
    return {
      kind: "token",
      context,
      clientId: client.id,
      scopes,
      company: caller?.company,
      customerLinks: caller && customerLinksFrom(caller.registrations),
    };
  }
  const caller = principal && (await context.stores.apiCallers.ofUser(principal.userId));
  if (!caller) throw invalidToken("the user of this access token is no longer active");
  return {
    kind: "token",
    context,
    clientId: claims.client_id,
    scopes,
    userId: principal.userId,
    acr: typeof claims.acr === "string" ? claims.acr : undefined,
    company: caller.company,
    customerLinks: customerLinksFrom(caller.registrations),
  };
}
