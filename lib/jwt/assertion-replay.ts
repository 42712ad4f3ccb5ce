/**
 * Replay protection for signed assertions: each (signer, jti) is accepted once until the assertion expires, in the
 * database, so a replay is caught by any instance. Client assertions and federated grants are kept apart. A
 * federated grant's audit event is written with its use, in the same commit.
 */
import { CLOCK_LEEWAY_SECONDS } from "@/lib/config/policy";
import { createHash, randomUUID } from "node:crypto";
import type { AuditEvent } from "@/lib/audit/record-audit-event";
import type { Db } from "@/lib/db/prisma";
import { useAssertion, useAssertionRecorded } from "@/lib/db/statements/used-assertions";
import { AssertionRefused } from "@/lib/jwt/signed-jwt";

export async function acceptOnce(
  db: Db,
  kind: "client" | "grant",
  signer: string,
  jti: string,
  exp: number,
  now = new Date(),
  event?: AuditEvent,
): Promise<void> {
  const key = createHash("sha256").update(`${kind}\n${signer}\n${jti}`).digest("base64url");
  // Kept as long as the assertion itself is accepted, leeway included.
  const expiresAt = new Date((exp + CLOCK_LEEWAY_SECONDS) * 1000);
  const first = event
    ? await useAssertionRecorded(db, key, expiresAt, now, {
        id: randomUUID(),
        occurredAt: now,
        type: event.type,
        userId: event.userId ?? null,
        clientId: event.clientId ?? null,
        details: JSON.stringify(event.details ?? {}),
      })
    : await useAssertion(db, key, expiresAt, now);
  if (!first) throw new AssertionRefused("its jti was already used (a replay)");
}
