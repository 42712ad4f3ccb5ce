/**
 * A plain request limit: requests under one key (a network, a company, an inviter) counted per window with the
 * sign-in throttle's atomic counters, so that it holds across processes and however many requests arrive at once.
 */
import type { ThrottleStore } from "@/lib/store/throttle-store";

/** Counts one request; the seconds until the window reopens when it is over `limit`, otherwise 0. */
export async function countRequest(
  throttles: ThrottleStore,
  key: string,
  limit: { max: number; windowSeconds: number },
  now = new Date(),
): Promise<number> {
  const count = await throttles.reserve(key, limit.windowSeconds, now);
  if (count.attempts <= limit.max) return 0;
  const reopens = count.windowStartedAt.getTime() + limit.windowSeconds * 1000;
  return Math.max(1, Math.ceil((reopens - now.getTime()) / 1000));
}
