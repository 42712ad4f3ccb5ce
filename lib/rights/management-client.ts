/**
 * The caller of the management API: a client acting for itself (client_credentials) with the management scopes the
 * registry gives it now, not only those its token names. An operator's client (`manage.*`, no company) acts for the
 * whole platform; a company administrator's client (`manage.company.*`) for its company alone, and only while the
 * company is active. A token of a user, or of another resource server's audience, reaches nothing here.
 */
import "server-only";
import { API_CLOCK_LEEWAY_SECONDS } from "@/lib/config/policy";
import type { ActingCompany, ManagementClient } from "@/lib/rights/actor";
import { invalidToken } from "@/lib/errors/oauth-error";
import { boundKeyOf, noteTokenCaller, verifyAccessToken } from "@/lib/oauth/token/verify-access-token";
import { checkSenderConstraint, type PresentedToken } from "@/lib/oauth/dpop/presented-token";
import type { HeaderReader } from "@/lib/http/protocol-message";
import type { ServiceContext } from "@/lib/service-context";
import { principalOf } from "@/lib/jwt/token-principal";
import { acceptedAudiences } from "@/lib/oauth/resource-indicators";
import { isCompanyManageScope, isManageScope } from "@/lib/oauth/scopes";

export async function managementClientOfToken(
  context: ServiceContext,
  presented: PresentedToken,
  request: { method: string; url: string; headers: HeaderReader },
): Promise<ManagementClient> {
  const claims = await verifyAccessToken(context, presented.token, {
    audiences: acceptedAudiences(context.config, "managementApi"),
    leewaySeconds: API_CLOCK_LEEWAY_SECONDS,
  });
  noteTokenCaller(claims);
  await checkSenderConstraint(context, presented, boundKeyOf(claims), request);
  const client = await context.stores.clients.find(claims.client_id);
  if (!client) throw invalidToken("the client of this access token is no longer registered");
  const base = { kind: "manager", context, clientId: client.id } as const;
  // A user's token acts for the user, never with the platform's rights.
  if (principalOf(claims)?.kind !== "client") return { ...base, scopes: new Set() };
  const granted = new Set(client.allowedScopes);
  const named = claims.scope.split(" ").filter((scope) => isManageScope(scope) && granted.has(scope));
  if (!client.companyId) return { ...base, scopes: new Set(named.filter((scope) => !isCompanyManageScope(scope))) };
  const company = await context.stores.companies.find(client.companyId);
  if (!company?.active) throw invalidToken("the company of this client is deactivated");
  const { id, name, kind, supplierId, requireSecondFactor } = company;
  const acting: ActingCompany = { id, name, kind, supplierId, requireSecondFactor };
  return { ...base, scopes: new Set(named.filter(isCompanyManageScope)), company: acting };
}
