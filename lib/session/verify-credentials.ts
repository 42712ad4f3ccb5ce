/**
 * Checks a user name and password, for the login form and the catalog services' SilentLogin: the throttle first,
 * then the password (the same work whether or not the account exists), then whether the user is active. Failures
 * are counted and audited.
 */
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { hashPassword, verifyPassword } from "@/lib/crypto/password";
import type { User } from "@/lib/db/generated/sqlite/client";
import type { Db } from "@/lib/db/prisma";
import { clearAccountThrottle, recordFailedSignIn, throttledForSeconds } from "@/lib/session/login-throttle";

export type CredentialCheck =
  | { ok: true; user: User }
  | { ok: false; reason: "invalid_credentials" | "account_disabled" }
  | { ok: false; reason: "throttled"; retryAfterSeconds: number };

let dummyHash: Promise<string> | undefined;
/** Verifying against a throw-away hash for unknown accounts takes as long as for real ones. */
const hashForUnknownAccounts = () => (dummyHash ??= hashPassword(crypto.randomUUID()));

export async function verifyCredentials(db: Db, username: string, password: string, ipAddress: string | undefined): Promise<CredentialCheck> {
  const email = username.trim().toLowerCase();
  const wait = await throttledForSeconds(db, email, ipAddress);
  if (wait > 0) return { ok: false, reason: "throttled", retryAfterSeconds: wait };
  const user = await db.user.findUnique({ where: { email } });
  const valid = await verifyPassword(password, user?.passwordHash ?? (await hashForUnknownAccounts()));
  if (!user || !valid) {
    await recordFailedSignIn(db, email, ipAddress);
    await recordAuditEvent(db, { type: "sign_in.failed", userId: user?.id, ipAddress, details: { username: email, reason: "invalid_credentials" } });
    return { ok: false, reason: "invalid_credentials" };
  }
  if (!user.active) {
    await recordAuditEvent(db, { type: "sign_in.failed", userId: user.id, ipAddress, details: { reason: "account_disabled" } });
    return { ok: false, reason: "account_disabled" };
  }
  await clearAccountThrottle(db, email);
  return { ok: true, user };
}
