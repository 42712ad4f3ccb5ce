/**
 * Users as the operator manages them (lib/admin/user-registry.ts): listing with their sign-in lock-outs,
 * deactivating (signed out everywhere, refresh tokens revoked), activating, lifting a lock-out. Each change is one
 * transaction with its audit event; the user leaves this process's user cache (others notice within
 * USER_CACHE_SECONDS).
 */
import type { Db, DbTransaction } from "@/lib/db/prisma";
import type { AuditEventType } from "@/lib/store/models/audit-event";
import { recordAuditEvent } from "@/lib/store/audit-store";
import { accountThrottleKey } from "@/lib/store/throttle-store";
import {
  LISTED_FIELDS,
  searchUsers,
  withLockOuts,
  type ListedUser,
  type UserPage,
  type UserSearch,
} from "@/lib/store/user-search";
import { clearAttempts } from "@/lib/db/statements/throttles";
import { forgetUser } from "@/lib/store/user-store";
import { bindDb } from "@/lib/store/bind-db";
import { eraseInvitedPerson, removeUser } from "@/lib/store/person-erasure-store";

export type { ListedUser };

/** The users of one company, one user by email, or all; with the lock-outs in force now. */
async function listUsers(
  db: Db,
  where: { companyId?: string; email?: string } = {},
  now = new Date(),
): Promise<ListedUser[]> {
  const users = await db.user.findMany({
    where,
    orderBy: [{ companyId: "asc" }, { email: "asc" }],
    select: LISTED_FIELDS,
  });
  return withLockOuts(db, users, now);
}

/**
 * Ends the users' sessions (but `keepSessionId`), revokes their refresh tokens, drops the authorization codes not
 * redeemed yet (a code minted in a session about to end would otherwise outlive it) and notes when (access tokens
 * issued before get no catalog ticket); with `tickets`, revokes their catalog tickets too (a deactivated user's are
 * refused for the user anyway). The ended sessions' ids, to announce.
 */
export async function signOutUsers(
  tx: Pick<DbTransaction, "loginSession" | "refreshToken" | "ticket" | "authorizationCode" | "user">,
  userIds: string[],
  now: Date,
  options: { keepSessionId?: string; tickets?: boolean } = {},
): Promise<string[]> {
  const { keepSessionId } = options;
  const sessions = await tx.loginSession.findMany({
    where: { userId: { in: userIds }, endedAt: null, ...(keepSessionId ? { id: { not: keepSessionId } } : {}) },
    select: { id: true },
  });
  const sessionIds = sessions.map((session) => session.id);
  await tx.loginSession.updateMany({ where: { id: { in: sessionIds } }, data: { endedAt: now } });
  await tx.refreshToken.updateMany({ where: { userId: { in: userIds }, revokedAt: null }, data: { revokedAt: now } });
  await tx.authorizationCode.deleteMany({ where: { userId: { in: userIds }, consumedAt: null } });
  await tx.user.updateMany({ where: { id: { in: userIds } }, data: { signedOutAt: now } });
  if (options.tickets)
    await tx.ticket.updateMany({ where: { userId: { in: userIds }, revokedAt: null }, data: { revokedAt: now } });
  return sessionIds;
}

/** An event about a person, in their company's trail. */
const userEvent = (
  tx: DbTransaction,
  type: AuditEventType,
  user: { id: string; email: string; companyId: string },
  by?: string,
) =>
  recordAuditEvent(tx, {
    type,
    userId: by,
    companyId: user.companyId,
    details: { subjectUserId: user.id, username: user.email },
  });

/** Who decides about a user: an operator's decision is the operator's, which a company administrator cannot undo. */
export interface UserDecision {
  by?: string;
  byOperator: boolean;
}

/**
 * Deactivates a user (who then stays deactivated when their company is activated again): signed out everywhere,
 * refresh tokens and tickets revoked, the invitations they sent and that wait withdrawn. The ended sessions' ids, or
 * why nothing changed.
 */
async function deactivateUser(
  db: Db,
  email: string,
  decision: UserDecision,
  now = new Date(),
): Promise<string[] | "not_found" | "unchanged"> {
  const outcome = await db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({
      where: { email },
      select: { id: true, email: true, companyId: true, active: true },
    });
    if (!user) return "not_found" as const;
    if (!user.active) {
      // An operator's word on a person a company administrator deactivated makes it the operator's decision.
      if (decision.byOperator) await tx.user.update({ where: { id: user.id }, data: { deactivatedByOperator: true } });
      return "unchanged" as const;
    }
    await tx.user.update({
      where: { id: user.id },
      data: { active: false, suspendedWithCompany: false, deactivatedByOperator: decision.byOperator },
    });
    const sessionIds = await signOutUsers(tx, [user.id], now);
    await tx.invitation.deleteMany({ where: { invitedByUserId: user.id, acceptedAt: null } });
    const by = decision.by;
    await userEvent(tx, "user.deactivated", user, by);
    return { userId: user.id, sessionIds };
  });
  if (typeof outcome === "string") return outcome;
  forgetUser(outcome.userId);
  return outcome.sessionIds;
}

/**
 * Activates a user of an active company; "company_inactive" while their company is deactivated, "operator_decision"
 * when an operator deactivated them and a company administrator asks.
 */
async function activateUser(
  db: Db,
  email: string,
  decision: UserDecision,
): Promise<"activated" | "not_found" | "unchanged" | "company_inactive" | "operator_decision"> {
  const outcome = await db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({
      where: { email },
      select: {
        id: true,
        email: true,
        companyId: true,
        active: true,
        deactivatedByOperator: true,
        company: { select: { active: true } },
      },
    });
    if (!user) return "not_found" as const;
    if (user.active) return "unchanged" as const;
    if (!user.company.active) return "company_inactive" as const;
    if (user.deactivatedByOperator && !decision.byOperator) return "operator_decision" as const;
    await tx.user.update({
      where: { id: user.id },
      data: { active: true, suspendedWithCompany: false, deactivatedByOperator: false },
    });
    await userEvent(tx, "user.activated", user, decision.by);
    return { userId: user.id };
  });
  if (typeof outcome === "string") return outcome;
  forgetUser(outcome.userId);
  return "activated";
}

/** Lifts the sign-in lock-out of an account (its failed attempts are forgotten); "not_found" for no such user. */
async function unlockUser(db: Db, email: string, by?: string): Promise<"unlocked" | "not_found"> {
  const user = await db.user.findUnique({ where: { email }, select: { id: true, email: true, companyId: true } });
  if (!user) return "not_found";
  await clearAttempts(db, accountThrottleKey(email));
  await db.$transaction((tx) => userEvent(tx, "user.unlocked", user, by));
  return "unlocked";
}

/** Changes a user's role within their company; "unchanged" when it is that role already. */
async function changeUserRole(
  db: Db,
  email: string,
  role: string,
  by?: string,
): Promise<"changed" | "not_found" | "unchanged"> {
  const outcome = await db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({
      where: { email },
      select: { id: true, email: true, companyId: true, role: true },
    });
    if (!user) return "not_found" as const;
    if (user.role === role) return "unchanged" as const;
    await tx.user.update({ where: { id: user.id }, data: { role } });
    await recordAuditEvent(tx, {
      type: "user.role_changed",
      userId: by,
      companyId: user.companyId,
      details: { subjectUserId: user.id, username: user.email, from: user.role, to: role },
    });
    return { userId: user.id };
  });
  if (typeof outcome === "string") return outcome;
  forgetUser(outcome.userId);
  return "changed";
}

/** How many active administrators the company has. */
function countActiveAdmins(db: Db, companyId: string): Promise<number> {
  return db.user.count({ where: { companyId, role: "admin", active: true } });
}

/** People as operators and company administrators manage them: listing, deciding about them, erasing them. */
export interface PeopleStore {
  /** The users of one company, one user by email, or all; with the lock-outs in force now. */
  list(where?: { companyId?: string; email?: string }, now?: Date): Promise<ListedUser[]>;
  /** A page of the users found (by id, company, email or words of their email and names), in email order. */
  search(where: UserSearch, page: UserPage, now?: Date): Promise<ListedUser[]>;
  /** Signed out everywhere and their waiting invitations withdrawn: the ended sessions' ids, or why nothing changed. */
  deactivate(email: string, decision: UserDecision, now?: Date): Promise<string[] | "not_found" | "unchanged">;
  activate(
    email: string,
    decision: UserDecision,
  ): Promise<"activated" | "not_found" | "unchanged" | "company_inactive" | "operator_decision">;
  /** Lifts the sign-in lock-out of an account (its failed attempts are forgotten). */
  unlock(email: string, by?: string): Promise<"unlocked" | "not_found">;
  changeRole(email: string, role: string, by?: string): Promise<"changed" | "not_found" | "unchanged">;
  countActiveAdmins(companyId: string): Promise<number>;
  /** Erases a user; call it after signing them out (deactivate), so that their applications were told. */
  remove(email: string, by?: string): Promise<"removed" | "not_found">;
  /** Erases someone invited who never joined: their pending invitation (its link stops working) and mail. */
  eraseInvited(email: string, by?: string): Promise<"erased" | "not_found">;
}

export const prismaPeopleStore = (db: Db): PeopleStore =>
  bindDb(db, {
    list: listUsers,
    search: searchUsers,
    deactivate: deactivateUser,
    activate: activateUser,
    unlock: unlockUser,
    changeRole: changeUserRole,
    countActiveAdmins,
    remove: removeUser,
    eraseInvited: eraseInvitedPerson,
  });
