/**
 * Replay protection for signed assertions: each (signer, jti) is accepted once until the assertion expires, in the
 * database, so a replay is caught by any instance. Client assertions and federated grants are kept apart.
 */
import { createHash } from "node:crypto";
import type { Db } from "@/lib/db/prisma";
import { useAssertion } from "@/lib/db/statements/used-assertions";
import { AssertionRefused, CLOCK_LEEWAY_SECONDS } from "@/lib/federation/signed-jwt";

export async function acceptOnce(db: Db, kind: "client" | "grant", signer: string, jti: string, exp: number, now = new Date()): Promise<void> {
  const key = createHash("sha256").update(`${kind}\n${signer}\n${jti}`).digest("base64url");
  // Kept as long as the assertion itself is accepted, leeway included.
  const expiresAt = new Date((exp + CLOCK_LEEWAY_SECONDS) * 1000);
  if (!(await useAssertion(db, key, expiresAt, now))) throw new AssertionRefused("its jti was already used (a replay)");
}
