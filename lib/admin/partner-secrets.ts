/**
 * The secrets of software vendors' applications: the first comes with the registration (RFC 7591, the partner portal),
 * more by `POST /connect/register/secrets` or the portal, pending or approved, so that a vendor rotates without
 * downtime. A vendor's secret lives at most LONGEST_PARTNER_SECRET_DAYS (those OptiGate gives by API live that long),
 * and an application has at most MAX_PARTNER_SECRETS usable at once: its registration access token cannot fill the
 * table. Values are shown once; the registry keeps only their hashes.
 */
import { addClientSecret, ClientRegistryError, usesSecrets, type NewSecret } from "@/lib/admin/client-registry";
import { ClientMetadataError } from "@/lib/admin/client-metadata";
import { LONGEST_PARTNER_SECRET_DAYS, MAX_PARTNER_SECRETS } from "@/lib/config/policy";
import { generateOpaqueToken } from "@/lib/crypto/tokens";
import type { ClientRegistration, PartnerApplication } from "@/lib/store/models/client";
import type { NewClientSecret } from "@/lib/store/client-registry-store";
import type { Stores } from "@/lib/store/stores";

const LONGEST_MS = LONGEST_PARTNER_SECRET_DAYS * 86_400_000;

/** When a secret OptiGate gives by API expires: as late as a vendor's may, on the second it announces. */
const apiSecretExpiry = () => new Date(Math.floor((Date.now() + LONGEST_MS) / 1000) * 1000);

/** RFC 7591 §3.2.1's fields of a secret issued just now. */
export const secretFields = (secret: string, expiresAt: Date) => ({
  client_secret: secret,
  client_secret_expires_at: Math.floor(expiresAt.getTime() / 1000),
});

/** The first secret of an application registered to authenticate with secrets; none for any other. */
export function firstPartnerSecret(
  registration: Pick<ClientRegistration, "tokenEndpointAuthMethod">,
): (NewClientSecret & { expiresAt: Date }) | undefined {
  return usesSecrets(registration) ? { value: generateOpaqueToken(), expiresAt: apiSecretExpiry() } : undefined;
}

/**
 * Another secret for an application that authenticates with secrets, pending or approved (rotation: the others keep
 * working until disabled); RFC 7591's fields for it. A client of another kind is refused as its metadata's error.
 */
export async function addRegistrationSecret(stores: Stores, client: PartnerApplication, by?: string) {
  if (!usesSecrets(client))
    throw new ClientMetadataError(
      "invalid_client_metadata",
      `client "${client.id}" uses no secrets: its token_endpoint_auth_method is "${client.tokenEndpointAuthMethod}"`,
    );
  if (client.status === "rejected")
    throw new ClientRegistryError(
      "invalid_state",
      `client "${client.id}" was not approved: change its registration to have it considered again`,
    );
  const expiresAt = apiSecretExpiry();
  const created = await addClientSecret(stores, client.id, { expiresAt, limit: MAX_PARTNER_SECRETS }, by);
  return { client_id: client.id, ...secretFields(created.secret, expiresAt) };
}

/** A secret a vendor's developer creates on the portal, expiring when they chose (within the longest) or never. */
export function addVendorSecret(
  stores: Stores,
  clientId: string,
  options: { description?: string; expiresAt?: Date },
  by?: string,
): Promise<NewSecret> {
  if (options.expiresAt && options.expiresAt.getTime() > Date.now() + LONGEST_MS)
    throw new ClientRegistryError("invalid_state", "a secret's expiry must lie within two years");
  return addClientSecret(stores, clientId, { ...options, limit: MAX_PARTNER_SECRETS }, by);
}
