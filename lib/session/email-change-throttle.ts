/**
 * How often a user may ask for a new address: each request mails two addresses, so a session (perhaps a stolen one)
 * must not be a way to send mail without end. Counted with the sign-in throttle's atomic counters.
 */
import { EMAIL_CHANGE_WINDOW_SECONDS, MAX_EMAIL_CHANGES } from "@/lib/config/policy";
import type { Db } from "@/lib/db/prisma";
import { reserveAttempt } from "@/lib/store/throttle-store";

/** Counts the request; 0 when it may go on, else the seconds until the user may ask again. */
export async function reserveEmailChange(db: Db, userId: string, now = new Date()): Promise<number> {
  const count = await reserveAttempt(db, `email-change:${userId}`, EMAIL_CHANGE_WINDOW_SECONDS, now);
  if (count.attempts <= MAX_EMAIL_CHANGES) return 0;
  const reopens = count.windowStartedAt.getTime() + EMAIL_CHANGE_WINDOW_SECONDS * 1000;
  return Math.max(1, Math.ceil((reopens - now.getTime()) / 1000));
}
