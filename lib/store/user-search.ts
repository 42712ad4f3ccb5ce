/**
 * Finding users for the operator and a company's administrators (the management API's /users): one by its id or
 * email, a company's, or those whose email or names hold every word of a text, a page at a time in email order, each
 * with the sign-in lock-out in force now. Names are compared without regard to case (on SQLite, LIKE's ASCII case
 * folding; on PostgreSQL, ILIKE's); emails are stored in lower case.
 */
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

function wordFilter(db: Db, word: string) {
  // The PostgreSQL client takes `mode`; the SQLite client's LIKE folds ASCII case already (and knows no mode).
  const fold = driverOf(db).provider === "postgresql" ? { mode: "insensitive" as const } : {};
  return {
    OR: [
      { email: { contains: word.toLowerCase() } },
      { givenName: { contains: word, ...fold } },
      { familyName: { contains: word, ...fold } },
    ],
  };
}

export async function searchUsers(db: Db, where: UserSearch, page: UserPage, now = new Date()): Promise<ListedUser[]> {
  const { id, companyId, email, words = [] } = where;
  const users = await db.user.findMany({
    where: {
      ...(id !== undefined ? { id } : {}),
      ...(companyId !== undefined ? { companyId } : {}),
      AND: [
        ...(email !== undefined ? [{ email }] : []),
        ...(page.after !== undefined ? [{ email: { gt: page.after } }] : []),
        ...words.map((word) => wordFilter(db, word)),
      ],
    },
    orderBy: { email: "asc" },
    take: page.limit,
    select: LISTED_FIELDS,
  });
  return withLockOuts(db, users, now);
}
