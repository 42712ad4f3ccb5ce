/**
 * The keys of a private_key_jwt client (RFC 7591 `jwks` or `jwks_uri`, exactly one of them): public signing keys
 * for the assertion algorithms, or an https URL to fetch them from. Other clients have no keys.
 */
import type { JSONWebKeySet } from "jose";
import { ClientMetadataError } from "@/lib/admin/client-metadata-error";
import type { TokenEndpointAuthMethod } from "@/lib/store/models/client";
import { readKeySource } from "@/lib/jwt/key-set-rules";
import type { AddressRanges } from "@/lib/config/address-ranges";

const fail = (message: string): never => {
  throw new ClientMetadataError("invalid_client_metadata", message);
};

export function resolveClientKeys(
  metadata: Record<string, unknown>,
  authMethod: TokenEndpointAuthMethod,
  production: boolean,
  outboundAllow?: AddressRanges,
): { jwks: JSONWebKeySet | null; jwksUri: string | null } {
  if (authMethod !== "private_key_jwt") {
    if (metadata.jwks !== undefined || metadata.jwks_uri !== undefined)
      fail('jwks and jwks_uri are for clients with token_endpoint_auth_method "private_key_jwt"');
    return { jwks: null, jwksUri: null };
  }
  try {
    return readKeySource(
      metadata.jwks,
      metadata.jwks_uri,
      "a private_key_jwt client needs its public keys: give either jwks or jwks_uri",
      production,
      outboundAllow,
    );
  } catch (error) {
    return fail((error as Error).message);
  }
}
