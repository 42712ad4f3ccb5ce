/**
 * Throttling of failed sign-ins, per account and per client address, kept in the database so that it holds across
 * processes. Failures are counted for unknown accounts too, so the answer never tells whether an account exists.
 */
import type { Db } from "@/lib/db/prisma";

export const THROTTLE_WINDOW_SECONDS = 15 * 60;
export const LOCKOUT_SECONDS = 15 * 60;
export const MAX_FAILURES = { account: 5, address: 20 } as const;

type Scope = keyof typeof MAX_FAILURES;

function keysFor(email: string, address: string | undefined): [Scope, string][] {
  const keys: [Scope, string][] = [["account", `account:${email}`]];
  if (address) keys.push(["address", `address:${address}`]);
  return keys;
}

/** Seconds until sign-in is possible again, or 0 when it is not throttled. */
export async function throttledForSeconds(db: Db, email: string, address: string | undefined, now = new Date()): Promise<number> {
  const rows = await db.loginThrottle.findMany({ where: { key: { in: keysFor(email, address).map(([, key]) => key) } } });
  const lockedUntil = Math.max(0, ...rows.map((row) => row.lockedUntil?.getTime() ?? 0));
  return Math.max(0, Math.ceil((lockedUntil - now.getTime()) / 1000));
}

export async function recordFailedSignIn(db: Db, email: string, address: string | undefined, now = new Date()): Promise<void> {
  for (const [scope, key] of keysFor(email, address)) {
    const row = await db.loginThrottle.findUnique({ where: { key } });
    const windowOpen = row !== null && now.getTime() - row.windowStartedAt.getTime() < THROTTLE_WINDOW_SECONDS * 1000;
    const failures = windowOpen ? row.failures + 1 : 1;
    const data = {
      failures,
      windowStartedAt: windowOpen ? row.windowStartedAt : now,
      lockedUntil: failures >= MAX_FAILURES[scope] ? new Date(now.getTime() + LOCKOUT_SECONDS * 1000) : (row?.lockedUntil ?? null),
    };
    await db.loginThrottle.upsert({ where: { key }, create: { key, ...data }, update: data });
  }
}

export async function clearAccountThrottle(db: Db, email: string): Promise<void> {
  await db.loginThrottle.deleteMany({ where: { key: `account:${email}` } });
}
