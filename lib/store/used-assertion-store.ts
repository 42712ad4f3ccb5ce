/**
 * Replay protection for signed assertions (`used_assertions`): each (kind, signer, jti) is recorded once until the
 * assertion expires, in the database, so a replay is caught by any instance; client assertions, federated grants and
 * DPoP proofs are kept apart by `kind`. One named statement (lib/db/statements/used-assertions.ts) records a use and
 * says whether it is the first; a federated grant's audit event is written with its use, in the same commit.
 */
import { CLOCK_LEEWAY_SECONDS } from "@/lib/config/policy";
import { createHash, randomUUID } from "node:crypto";
import type { Db } from "@/lib/db/prisma";
import { useAssertion, useAssertionRecorded } from "@/lib/db/statements/used-assertions";
import type { AuditEvent } from "@/lib/store/models/audit-event";
import type { AssertionUse } from "@/lib/store/models/token";

export interface UsedAssertionStore {
  /** Records the use (with `event`, in the same commit, when given); false when it was used before and is still valid. */
  recordUse(assertion: AssertionUse, now: Date, event?: AuditEvent): Promise<boolean>;
}

/** The key a use is stored under: the SHA-256 of what makes it unique. */
export const assertionKey = ({ kind, signer, jti }: AssertionUse) =>
  createHash("sha256").update(`${kind}\n${signer}\n${jti}`).digest("base64url");

/** Kept as long as the assertion itself is accepted, leeway included. */
export const assertionKeptUntil = ({ exp }: AssertionUse) => new Date((exp + CLOCK_LEEWAY_SECONDS) * 1000);

export function prismaUsedAssertionStore(db: Db): UsedAssertionStore {
  return {
    recordUse(assertion, now, event) {
      const key = assertionKey(assertion);
      const expiresAt = assertionKeptUntil(assertion);
      return event
        ? useAssertionRecorded(db, key, expiresAt, now, {
            id: randomUUID(),
            occurredAt: now,
            type: event.type,
            userId: event.userId ?? null,
            clientId: event.clientId ?? null,
            details: JSON.stringify(event.details ?? {}),
          })
        : useAssertion(db, key, expiresAt, now);
    },
  };
}
