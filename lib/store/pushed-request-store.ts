/**
 * Pushed authorization requests (RFC 9126, `pushed_authorization_requests`): the parameters a client pushed, under
 * the SHA-256 of the random part of their request_uri. A request_uri must reach the authorization endpoint within
 * PUSHED_REQUEST_LIFETIME_SECONDS; from then on it lives as long as the sign-in it started (INTERACTION_LIFETIME_SECONDS),
 * through login and consent, and leads to one authorization response only (`used_at`, set by a conditional update).
 */
import { INTERACTION_LIFETIME_SECONDS, PUSHED_REQUEST_LIFETIME_SECONDS } from "@/lib/config/policy";
import { generateOpaqueToken, hashToken } from "@/lib/crypto/tokens";
import type { Db } from "@/lib/db/prisma";
import { parametersJson, parametersOfJson } from "@/lib/store/stored-parameters";

export type PushedRequestRefusal = "unknown" | "expired" | "used";

/** Stores the pushed parameters of the client; returns the random part of the request_uri. */
export async function storePushedRequest(
  db: Db,
  clientId: string,
  parameters: Iterable<[string, string]>,
  now = new Date(),
): Promise<string> {
  const id = generateOpaqueToken();
  await db.pushedAuthorizationRequest.create({
    data: {
      idHash: hashToken(id),
      clientId,
      parameters: parametersJson(parameters),
      createdAt: now,
      expiresAt: new Date(now.getTime() + PUSHED_REQUEST_LIFETIME_SECONDS * 1000),
    },
  });
  return id;
}

/** How many of a client's pushed requests wait for their user agent (not started, not expired). */
export function countWaitingPushedRequests(db: Db, clientId: string, now = new Date()): Promise<number> {
  return db.pushedAuthorizationRequest.count({ where: { clientId, startedAt: null, expiresAt: { gt: now } } });
}

/**
 * The parameters of the client's pushed request `id`, which the user agent brought to the authorization endpoint,
 * and when it first did: within its minute, which extends its life to that of a sign-in. Otherwise why it is refused.
 */
export async function startPushedRequest(
  db: Db,
  id: string,
  clientId: string,
  now = new Date(),
): Promise<{ parameters: URLSearchParams; startedAt: Date } | PushedRequestRefusal> {
  const idHash = hashToken(id);
  const row = await db.pushedAuthorizationRequest.findUnique({ where: { idHash } });
  if (!row || row.clientId !== clientId) return "unknown";
  if (row.usedAt) return "used";
  if (row.expiresAt <= now) return "expired";
  if (!row.startedAt) {
    const extended = new Date(now.getTime() + INTERACTION_LIFETIME_SECONDS * 1000);
    const { count } = await db.pushedAuthorizationRequest.updateMany({
      where: { idHash, startedAt: null, usedAt: null, expiresAt: { gt: now } },
      data: { startedAt: now, expiresAt: extended },
    });
    // Another request started it at the same moment: it is started either way.
    if (count === 0 && (await db.pushedAuthorizationRequest.count({ where: { idHash, usedAt: null } })) === 0)
      return "used";
  }
  return { parameters: parametersOfJson(row.parameters), startedAt: row.startedAt ?? now };
}

/** Marks the pushed request used by the authorization response it led to; false when it was used already. */
export async function usePushedRequest(db: Db, id: string, now = new Date()): Promise<boolean> {
  const { count } = await db.pushedAuthorizationRequest.updateMany({
    where: { idHash: hashToken(id), usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  return count === 1;
}
