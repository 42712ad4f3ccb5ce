/**
 * Who may register and manage applications by API (RFC 7591/7592): whoever holds a current initial access token the
 * operator issued to a software vendor registers for that vendor; whoever holds an application's registration
 * access token manages that application and no other. Each function returns null when the token gives no right.
 */
import "server-only";
import {
  applicationOfToken,
  changePartnerApplication,
  registerPartnerApplication,
  registrationResponse,
  removePartnerApplication,
} from "@/lib/admin/partner-applications";
import { hashToken } from "@/lib/crypto/tokens";
import type { ServiceContext } from "@/lib/service-context";
import { findInitialAccessTokenCompany, findPartner } from "@/lib/store/partner-store";

export { ClientMetadataError } from "@/lib/admin/client-metadata";

export async function registerWithInitialAccessToken(context: ServiceContext, token: string, metadata: unknown) {
  if (token.length > 200) return null;
  const company = await findInitialAccessTokenCompany(context.db, hashToken(token));
  if (!company) return null;
  const partner = { id: company.id, partnerScopes: JSON.parse(company.partnerScopes) as string[] };
  return registerPartnerApplication(context, partner, metadata);
}

export async function readRegistration(context: ServiceContext, clientId: string, token: string) {
  const client = await applicationOfToken(context.db, clientId, token);
  return client ? registrationResponse(client, context.config.publicUrl) : null;
}

export async function changeRegistration(
  context: ServiceContext,
  clientId: string,
  token: string,
  metadata: Record<string, unknown>,
) {
  const client = await applicationOfToken(context.db, clientId, token);
  const partner = client?.ownerCompanyId ? await findPartner(context.db, client.ownerCompanyId) : null;
  if (!client || !partner) return null;
  return changePartnerApplication(context, client, partner, metadata);
}

export async function deleteRegistration(context: ServiceContext, clientId: string, token: string): Promise<boolean> {
  const client = await applicationOfToken(context.db, clientId, token);
  if (!client) return false;
  await removePartnerApplication(context.db, client);
  return true;
}
