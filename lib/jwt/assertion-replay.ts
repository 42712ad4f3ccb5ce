/**
 * Replay protection for signed assertions: each (signer, jti) is accepted once until the assertion expires, in the
 * database (lib/store/used-assertion-store.ts), so a replay is caught by any instance. Client assertions and
 * federated grants are kept apart. A federated grant's audit event is written with its use, in the same commit.
 */
import type { AuditEvent } from "@/lib/store/models/audit-event";
import type { UsedAssertionStore } from "@/lib/store/used-assertion-store";
import { AssertionRefused } from "@/lib/jwt/signed-jwt";

export async function acceptOnce(
  usedAssertions: UsedAssertionStore,
  kind: "client" | "grant",
  signer: string,
  jti: string,
  exp: number,
  now = new Date(),
  event?: AuditEvent,
): Promise<void> {
  if (!(await usedAssertions.recordUse({ kind, signer, jti, exp }, now, event)))
    throw new AssertionRefused("its jti was already used (a replay)");
}
