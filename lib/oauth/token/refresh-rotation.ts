/**
 * The rotate policy of refresh tokens (RFC 9700 §4.14.2): each use hands out a successor and rotates the presented
 * token out. The successor is derived from the presented token under a server key, so every request that presents
 * the same token, in parallel or as a retry within the grace period, is answered with the same successor (or that
 * successor's own live descendant), never with a second live branch of the family. Rotating out and storing the
 * successor are one transaction, so a rotated-out token always has its successor stored.
 */
import { createHmac } from "node:crypto";
import { deriveKey } from "@/lib/crypto/secret-box";
import type { RefreshToken } from "@/lib/store/models/token";
import { invalidGrant } from "@/lib/errors/oauth-error";
import type { ServiceContext } from "@/lib/service-context";

/** Far more than a client racing itself within the grace period can rotate; only bounds the walk down the chain. */
const MAX_DESCENDANTS = 32;

const successorKeys = new Map<string, Buffer>();

/** The successor of `token`: an HMAC under a key derived from SECRET_KEY, as random to anyone without that key. */
export function successorToken(secretKey: string, token: string): string {
  let key = successorKeys.get(secretKey);
  if (!key) successorKeys.set(secretKey, (key = deriveKey(secretKey, "refresh-token-successor")));
  return createHmac("sha256", key).update(token, "utf8").digest("base64url");
}

/** Rotates `token` out and stores its successor; false when another request rotated it first. */
export function rotateOut(
  context: ServiceContext,
  token: RefreshToken,
  presented: string,
  now: Date,
): Promise<boolean> {
  return context.stores.refreshTokens.rotate(token, successorToken(context.config.secretKey, presented), now);
}

/**
 * The live token a retry of rotated-out `presented` is answered with: its successor, or the successor's successor
 * when the client has used that already, and so on.
 */
export async function liveDescendant(context: ServiceContext, presented: string): Promise<string> {
  let current = presented;
  for (let step = 0; step < MAX_DESCENDANTS; step++) {
    current = successorToken(context.config.secretKey, current);
    const row = await context.stores.refreshTokens.find(current);
    if (!row || row.revokedAt) break;
    if (!row.rotatedAt) return current;
  }
  throw invalidGrant("the refresh token is not valid");
}
