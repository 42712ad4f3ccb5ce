/**
 * Finding users for the operator and a company's administrators (the management API's /users): one by its id or
 * email, a company's, or those whose email or names hold every word of a text, a page at a time in email order, each
 * with the sign-in lock-out in force now. Names are compared without regard to case (on SQLite, LIKE's ASCII case
 * folding; on PostgreSQL, ILIKE's); emails are stored in lower case. A word is found literally: its `%`, `_` and `\`
 * are escaped, in SQL of our own, since Prisma's `contains` passes them on as wildcards and SQLite's LIKE knows no
 * escape character unless the statement names one.
 */
import { numberedPlaceholders } from "@/lib/db/dialect";
import { driverOf, type Db } from "@/lib/db/prisma";
import { accountThrottleKey } from "@/lib/store/throttle-store";

export interface ListedUser {
  id: string;
  email: string;
  companyId: string;
  role: string;
  active: boolean;
  givenName: string;
  familyName: string;
  createdAt: Date;
  lastSignInAt: Date | null;
  /** until when sign-in is locked after failed attempts, if it is now */
  lockedUntil: Date | null;
}

export interface UserSearch {
  id?: string;
  companyId?: string;
  /** the whole address, in lower case */
  email?: string;
  /** words each found in the email or a name */
  words?: string[];
}

/** A page in email order: the users after `after` (an email), at most `limit`. */
export interface UserPage {
  after?: string;
  limit: number;
}

export const LISTED_FIELDS = {
  id: true,
  email: true,
  companyId: true,
  role: true,
  active: true,
  givenName: true,
  familyName: true,
  createdAt: true,
  lastSignInAt: true,
} as const;

/** The users with the lock-outs in force now. */
export async function withLockOuts(db: Db, users: Omit<ListedUser, "lockedUntil">[], now: Date): Promise<ListedUser[]> {
  if (users.length === 0) return [];
  // The accounts locked now are few, however many users there are: read them all rather than one key per user.
  const locks = await db.loginThrottle.findMany({
    where: { key: { startsWith: accountThrottleKey("") }, lockedUntil: { gt: now } },
    select: { key: true, lockedUntil: true },
  });
  const lockedUntil = new Map(locks.map((lock) => [lock.key, lock.lockedUntil]));
  return users.map((user) => ({ ...user, lockedUntil: lockedUntil.get(accountThrottleKey(user.email)) ?? null }));
}

/** A LIKE pattern that finds `word` anywhere, its wildcards and the escape character taken literally. */
const containsPattern = (word: string) => `%${word.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

/**
 * The ids of the page of users the search finds, in email order: every filter in one statement of our own, each word
 * a LIKE with ESCAPE (ILIKE for the names on PostgreSQL; SQLite's LIKE folds ASCII case already).
 */
async function idsFound(db: Db, where: UserSearch, page: UserPage, words: string[]): Promise<string[]> {
  const provider = driverOf(db).provider;
  const like = provider === "postgresql" ? "ILIKE" : "LIKE";
  const conditions: string[] = [];
  const values: string[] = [];
  const add = (condition: string, ...given: string[]) => (conditions.push(condition), values.push(...given));
  if (where.id !== undefined) add(`"id" = ?`, where.id);
  if (where.companyId !== undefined) add(`"company_id" = ?`, where.companyId);
  if (where.email !== undefined) add(`"email" = ?`, where.email);
  if (page.after !== undefined) add(`"email" > ?`, page.after);
  for (const word of words)
    add(
      `("email" LIKE ? ESCAPE '\\' OR "given_name" ${like} ? ESCAPE '\\' OR "family_name" ${like} ? ESCAPE '\\')`,
      containsPattern(word.toLowerCase()),
      containsPattern(word),
      containsPattern(word),
    );
  const limit = Math.max(0, Math.floor(page.limit));
  const sql = `SELECT "id" FROM "users" WHERE ${conditions.join(" AND ")} ORDER BY "email" LIMIT ${limit}`;
  const rows = await db.$queryRawUnsafe<{ id: string }[]>(
    provider === "postgresql" ? numberedPlaceholders(sql) : sql,
    ...values,
  );
  return rows.map((row) => row.id);
}

export async function searchUsers(db: Db, where: UserSearch, page: UserPage, now = new Date()): Promise<ListedUser[]> {
  const { id, companyId, email, words = [] } = where;
  const found = words.length > 0 ? { id: { in: await idsFound(db, where, page, words) } } : undefined;
  const users = await db.user.findMany({
    where: found ?? {
      ...(id !== undefined ? { id } : {}),
      ...(companyId !== undefined ? { companyId } : {}),
      AND: [
        ...(email !== undefined ? [{ email }] : []),
        ...(page.after !== undefined ? [{ email: { gt: page.after } }] : []),
      ],
    },
    orderBy: { email: "asc" },
    take: page.limit,
    select: LISTED_FIELDS,
  });
  return withLockOuts(db, users, now);
}
