/**
 * Consent prompts as server-side interactions. The authorization endpoint opens one only after the request passed all
 * of its checks (login, prompt=login, max_age, id_token_hint) for a login session; the consent page shows it and its
 * form decides it, once, for that same session. So the consent step cannot be reached around those checks, replayed,
 * or used from another browser. The value in the URL is 256 random bits; only its hash is stored
 * (`authorization_interactions`).
 */
import { INTERACTION_LIFETIME_SECONDS } from "@/lib/config/policy";
import { generateOpaqueToken, hashToken } from "@/lib/crypto/tokens";
import type { Db } from "@/lib/db/prisma";
import { parametersJson, parametersOfJson } from "@/lib/store/stored-parameters";

export interface OpenInteraction {
  /** The authorization request's parameters, to validate it again when it is decided. */
  parameters: URLSearchParams;
}

/** Opens the consent prompt of a validated request for a login session; returns the value for the consent URL. */
export async function openInteraction(
  db: Db,
  sessionId: string,
  clientId: string,
  parameters: Iterable<[string, string]>,
  now = new Date(),
): Promise<string> {
  const id = generateOpaqueToken();
  await db.authorizationInteraction.create({
    data: {
      idHash: hashToken(id),
      loginSessionId: sessionId,
      clientId,
      parameters: parametersJson(parameters),
      createdAt: now,
      expiresAt: new Date(now.getTime() + INTERACTION_LIFETIME_SECONDS * 1000),
    },
  });
  return id;
}

const where = (id: string, sessionId: string, now: Date) => ({
  idHash: hashToken(id),
  loginSessionId: sessionId,
  expiresAt: { gt: now },
});

const openRow = (db: Db, id: string, sessionId: string, now: Date) =>
  db.authorizationInteraction.findFirst({ where: where(id, sessionId, now) });

function opened(row: { parameters: string }): OpenInteraction {
  return { parameters: parametersOfJson(row.parameters) };
}

/** The session's open prompt with this id, or undefined (unknown, expired, decided, or another session's). */
export async function findInteraction(
  db: Db,
  id: string,
  sessionId: string,
  now = new Date(),
): Promise<OpenInteraction | undefined> {
  const row = await openRow(db, id, sessionId, now);
  return row ? opened(row) : undefined;
}

/** Takes the prompt out of the store for its decision; of concurrent decisions exactly one gets it. */
export async function takeInteraction(
  db: Db,
  id: string,
  sessionId: string,
  now = new Date(),
): Promise<OpenInteraction | undefined> {
  const row = await openRow(db, id, sessionId, now);
  if (!row) return undefined;
  const taken = await db.authorizationInteraction.deleteMany({
    where: { idHash: row.idHash, loginSessionId: sessionId },
  });
  return taken.count === 1 ? opened(row) : undefined;
}
