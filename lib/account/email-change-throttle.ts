/**
 * How often a user may ask for a new address: each request mails two addresses, so a session (perhaps a stolen one)
 * must not be a way to send mail without end.
 */
import { EMAIL_CHANGE_WINDOW_SECONDS, MAX_EMAIL_CHANGES } from "@/lib/config/policy";
import { countRequest } from "@/lib/session/request-rate";
import type { ThrottleStore } from "@/lib/store/throttle-store";

/** Counts the request; 0 when it may go on, else the seconds until the user may ask again. */
export function reserveEmailChange(throttles: ThrottleStore, userId: string, now = new Date()): Promise<number> {
  const limit = { max: MAX_EMAIL_CHANGES, windowSeconds: EMAIL_CHANGE_WINDOW_SECONDS };
  return countRequest(throttles, `email-change:${userId}`, limit, now);
}
