/**
 * Who may register and manage applications by API (RFC 7591/7592): whoever holds a current initial access token the
 * operator issued to an active software vendor registers for that vendor; whoever holds an application's
 * registration access token manages that application and no other, while its vendor is active. Each lookup returns
 * null when the token gives no right, before any body is read.
 */
import "server-only";
import {
  applicationOfToken,
  changePartnerApplication,
  registerPartnerApplication,
  registrationResponse,
  removePartnerApplication,
  type Partner,
} from "@/lib/admin/partner-applications";
import { addRegistrationSecret } from "@/lib/admin/partner-secrets";
import { hashToken } from "@/lib/crypto/tokens";
import type { PartnerApplication } from "@/lib/store/models/client";
import type { ServiceContext } from "@/lib/service-context";

export { ClientMetadataError } from "@/lib/admin/client-metadata";
export { ClientRegistryError } from "@/lib/admin/client-registry";

/** The vendor an initial access token registers for. */
export async function partnerOfInitialAccessToken(context: ServiceContext, token: string): Promise<Partner | null> {
  if (token.length > 200) return null;
  return context.stores.partners.findInitialAccessTokenCompany(hashToken(token));
}

/** RFC 7591's answer: the application, its registration access token and, if it uses secrets, its first secret. */
export async function registerForPartner(context: ServiceContext, partner: Partner, metadata: unknown) {
  return (await registerPartnerApplication(context, partner, metadata)).answer;
}

/** An application with its vendor, if the registration access token is this application's. */
export interface ManagedApplication {
  client: PartnerApplication;
  partner: Partner;
}

export async function applicationOfRegistrationToken(
  context: ServiceContext,
  clientId: string,
  token: string,
): Promise<ManagedApplication | null> {
  const client = await applicationOfToken(context.stores, clientId, token);
  const partner = client?.ownerCompanyId ? await context.stores.partners.findPartner(client.ownerCompanyId) : null;
  return client && partner?.active ? { client, partner } : null;
}

export function readRegistration(context: ServiceContext, { client }: ManagedApplication) {
  return registrationResponse(client, context.config.publicUrl);
}

export function changeRegistration(
  context: ServiceContext,
  { client, partner }: ManagedApplication,
  metadata: Record<string, unknown>,
) {
  return changePartnerApplication(context, client, partner, metadata);
}

/** Removes the application; false when it was removed meanwhile (by a second request or the operator). */
export function deleteRegistration(context: ServiceContext, { client }: ManagedApplication): Promise<boolean> {
  return removePartnerApplication(context.stores, client);
}

/** Another secret for the application, to rotate (pending or approved); RFC 7591's secret fields. */
export function createRegistrationSecret(context: ServiceContext, { client }: ManagedApplication) {
  return addRegistrationSecret(context.stores, client);
}
