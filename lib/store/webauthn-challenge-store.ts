/**
 * WebAuthn challenges that were used (`webauthn_challenges`), by their SHA-256, until they expire: a challenge lives
 * in a sealed cookie of the browser it was handed to, and is written here only when a response carrying it comes
 * back, so that it counts once. Handing out challenges writes nothing.
 */
import type { Db } from "@/lib/db/prisma";
import { isUniqueViolation } from "@/lib/db/unique-violation";

import type { UsedChallenge } from "@/lib/store/models/second-factor";

/** Records the challenge's use; false when it was used before (also by a request racing this one). */
export async function recordChallengeUse(db: Db, challenge: UsedChallenge, now: Date): Promise<boolean> {
  try {
    await db.webauthnChallenge.create({
      data: {
        challengeHash: challenge.hash,
        purpose: challenge.purpose,
        userId: challenge.userId ?? null,
        createdAt: now,
        expiresAt: challenge.expiresAt,
        usedAt: now,
      },
    });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}
