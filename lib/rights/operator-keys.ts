/**
 * The management API's access to the signing keys (/manage/v1/keys): an operator or an operator's management client
 * with the scope, through the functions of `keys list|rotate|retire` (lib/admin/signing-key-registry.ts).
 */
import "server-only";
import {
  listSigningKeys,
  retireSigningKey,
  rotateSigningKeys,
  type SigningKeyInfo,
} from "@/lib/admin/signing-key-registry";
import { requirePlatformAdmin, requirePlatformReader, type Actor } from "@/lib/rights/actor";
import type { SigningAlgorithm } from "@/lib/store/models/signing-key";

export type { SigningKeyInfo };

const SCOPES = { read: "manage.keys.read", write: "manage.keys.write" };
const WRITE = SCOPES.write;

export async function signingKeysFor(actor: Actor): Promise<SigningKeyInfo[]> {
  const { context } = requirePlatformReader(actor, SCOPES);
  return listSigningKeys(context.stores);
}

/** New active keys, of one algorithm or of all; the kids made and superseded. */
export async function rotateKeysFor(actor: Actor, alg?: SigningAlgorithm) {
  const { context, by } = requirePlatformAdmin(actor, WRITE);
  return rotateSigningKeys(context.stores, context.config.secretKey, alg, by);
}

/** Takes a superseded key out of the JWKS now. */
export async function retireKeyFor(actor: Actor, kid: string): Promise<void> {
  const { context, by } = requirePlatformAdmin(actor, WRITE);
  await retireSigningKey(context.stores, kid, by);
}
