/**
 * Users with their company, as the token endpoint needs them for claims, cached per process for a few seconds so that
 * a refresh or code redemption costs one database write and no reads. Deactivating a user takes effect for tokens
 * within USER_CACHE_SECONDS, or at once in the process that calls forgetUser after changing a user. At most
 * MAX_CACHED_USERS are kept: with a hundred thousand users refreshing, the cache must not grow with them.
 */
import { MAX_CACHED_USERS, USER_CACHE_SECONDS } from "@/lib/config/policy";
import type { Db } from "@/lib/db/prisma";
import { processCache } from "@/lib/cache/process-cache";
import type { UserWithCompany } from "@/lib/oauth/token/jwt-tokens";

const cache = processCache(
  "users",
  () => new Map<string, { loadedAt: number; user: Promise<UserWithCompany | null> }>(),
);

/** The user if it exists and is active. */
export async function findActiveUser(db: Db, userId: string, now = Date.now()): Promise<UserWithCompany | null> {
  let entry = cache.get(userId);
  if (!entry || now - entry.loadedAt > USER_CACHE_SECONDS * 1000) {
    entry = { loadedAt: now, user: db.user.findUnique({ where: { id: userId }, include: { company: true } }) };
    // Maps iterate in insertion order: re-inserting keeps the oldest loads first, and those go when the cache is full.
    cache.delete(userId);
    if (cache.size >= MAX_CACHED_USERS) cache.delete(cache.keys().next().value!);
    cache.set(userId, entry);
    entry.user.catch(() => cache.delete(userId));
  }
  const user = await entry.user;
  return user?.active ? user : null;
}

export function forgetUser(userId?: string): void {
  if (userId === undefined) cache.clear();
  else cache.delete(userId);
}
