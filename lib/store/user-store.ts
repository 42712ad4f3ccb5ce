/**
 * Users (`users`): reading one by id or email, and the few changes sign-in and the portal make. Users with their
 * company, as the token endpoint needs them for claims, are cached per process for a few seconds so that
 * a refresh or code redemption costs one database write and no reads. Deactivating a user takes effect for tokens
 * within USER_CACHE_SECONDS, or at once in the process that calls forgetUser after changing a user. At most
 * MAX_CACHED_USERS are kept: with a hundred thousand users refreshing, the cache must not grow with them.
 */
import { MAX_CACHED_USERS, USER_CACHE_SECONDS } from "@/lib/config/policy";
import type { Db } from "@/lib/db/prisma";
import { processCache } from "@/lib/observability/process-cache";
import type { NewUser, User, UserWithCompany } from "@/lib/store/models/user";

export interface UserStore {
  /** The user with their company if active; cached for USER_CACHE_SECONDS (forgetUser drops it at once). */
  findActive(userId: string, now?: number): Promise<UserWithCompany | null>;
  /** The user with their company, read now, whether active or not. */
  find(userId: string): Promise<UserWithCompany | null>;
  /** The user with this (lower-case) email, read now, whether active or not. */
  findByEmail(email: string): Promise<User | null>;
  /** The same, with their company. */
  findWithCompanyByEmail(email: string): Promise<UserWithCompany | null>;
  /** The id of the user with this (lower-case) email, active or not. */
  findIdByEmail(email: string): Promise<string | null>;
  /** The emails of these users by id (those that exist). */
  findEmails(userIds: string[]): Promise<Map<string, string>>;
  /** Whether the user exists and is active, read now. */
  findActivity(userId: string): Promise<{ id: string; active: boolean } | null>;
  /**
   * Replaces the user's password hash with `replacement` if it still is `stored` (a hash made anew at sign-in must not
   * undo a change of password made meanwhile); whether it did.
   */
  replacePasswordHash(userId: string, stored: string, replacement: string): Promise<boolean>;
  /** Whether any user's password hash begins with `prefix` (an algorithm's mark, such as `scrypt$`). */
  hasPasswordHashes(prefix: string): Promise<boolean>;
  /** The language the user's pages are shown in (null: the browser's); tokens see it at once in this process. */
  savePreferredLanguage(userId: string, language: string | null): Promise<void>;
  save(user: NewUser): Promise<void>;
}

const cache = processCache(
  "users",
  () => new Map<string, { loadedAt: number; user: Promise<UserWithCompany | null> }>(),
);

async function findActiveUser(db: Db, userId: string, now = Date.now()): Promise<UserWithCompany | null> {
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

/** A user as a trusted issuer's reach is judged: by company and email domain. */
export interface UserWithCompanyKind {
  id: string;
  email: string;
  companyId: string;
  company: { kind: string };
}

/** The id of the user with this (lower-case) email, active or not. */
export async function findUserIdByEmail(db: Pick<Db, "user">, email: string): Promise<string | null> {
  return (await db.user.findUnique({ where: { email }, select: { id: true } }))?.id ?? null;
}

export function findUserWithCompanyKind(db: Pick<Db, "user">, email: string): Promise<UserWithCompanyKind | null> {
  return db.user.findUnique({
    where: { email },
    select: { id: true, email: true, companyId: true, company: { select: { kind: true } } },
  });
}

export function prismaUserStore(db: Db): UserStore {
  const withCompany = { company: true } as const;
  return {
    findActive: (userId, now) => findActiveUser(db, userId, now),
    find: (userId) => db.user.findUnique({ where: { id: userId }, include: withCompany }),
    findByEmail: (email) => db.user.findUnique({ where: { email } }),
    findWithCompanyByEmail: (email) => db.user.findUnique({ where: { email }, include: withCompany }),
    findIdByEmail: (email) => findUserIdByEmail(db, email),
    async findEmails(userIds) {
      const rows = await db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, email: true } });
      return new Map(rows.map((user) => [user.id, user.email]));
    },
    findActivity: (userId) => db.user.findUnique({ where: { id: userId }, select: { id: true, active: true } }),
    async replacePasswordHash(userId, stored, replacement) {
      const { count } = await db.user.updateMany({
        where: { id: userId, passwordHash: stored },
        data: { passwordHash: replacement },
      });
      return count === 1;
    },
    async hasPasswordHashes(prefix) {
      return (
        (await db.user.findFirst({ where: { passwordHash: { startsWith: prefix } }, select: { id: true } })) !== null
      );
    },
    async savePreferredLanguage(userId, language) {
      await db.user.update({ where: { id: userId }, data: { preferredLanguage: language } });
      forgetUser(userId);
    },
    async save(user) {
      await db.user.create({ data: user });
    },
  };
}
