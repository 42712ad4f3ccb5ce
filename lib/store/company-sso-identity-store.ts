/**
 * The accounts at companies' providers linked to local users (`company_sso_identities`), part of the company-SSO
 * store (company-sso-store.ts): an account (its concrete issuer and subject) is linked for the company whose provider
 * vouched for it, to one user, and never moved: another company's provider presenting the same issuer and subject
 * (Google's issuer is everyone's) finds no user. A user made just in time is written with the link, or neither is.
 */
import type { Db } from "@/lib/db/prisma";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { recordAuditEvent } from "@/lib/store/audit-store";
import { bindDb } from "@/lib/store/bind-db";
import type { SsoIdentity } from "@/lib/store/models/company-sso";
import type { NewUser } from "@/lib/store/models/user";

/** The user an upstream account is linked to, when linked for this company (another company's link is none). */
async function findSsoIdentity(
  db: Db,
  { issuer, subject, companyId }: SsoIdentity,
): Promise<{ userId: string; lastSignInAt: Date | null } | null> {
  const row = await db.companySsoIdentity.findUnique({ where: { issuer_subject: { issuer, subject } } });
  return row?.companyId === companyId ? { userId: row.userId, lastSignInAt: row.lastSignInAt } : null;
}

const identityEvent = ({ issuer, subject, companyId }: SsoIdentity, userId: string, createdUser: boolean) => ({
  type: "company.sso_identity_linked" as const,
  userId,
  details: { companyId, issuer, subject, createdUser },
});

/**
 * Links an upstream account to an existing user, audited. "taken" when it is linked already to another user or for
 * another company (a link is never moved); linking it again to the same user changes nothing.
 */
async function linkSsoIdentity(db: Db, identity: SsoIdentity, userId: string, now = new Date()) {
  const { issuer, subject, companyId } = identity;
  const same = async () => {
    const row = await db.companySsoIdentity.findUnique({ where: { issuer_subject: { issuer, subject } } });
    return row?.userId === userId && row.companyId === companyId ? ("linked" as const) : ("taken" as const);
  };
  if ((await db.companySsoIdentity.count({ where: { issuer, subject } })) === 1) return same();
  try {
    await db.$transaction(async (tx) => {
      await tx.companySsoIdentity.create({ data: { ...identity, userId, createdAt: now, lastSignInAt: now } });
      await recordAuditEvent(tx, identityEvent(identity, userId, false));
    });
    return "linked" as const;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return same();
  }
}

/**
 * A user made on their first sign-in (just in time) together with the link of their upstream account, audited, or
 * nothing: "identity_taken" when the account is linked already, "email_taken" when the email has a user.
 */
async function createUserWithSsoIdentity(
  db: Db,
  user: NewUser,
  identity: SsoIdentity,
  now = new Date(),
): Promise<{ userId: string } | "email_taken" | "identity_taken"> {
  try {
    return await db.$transaction(async (tx) => {
      // Made now by this process's clock, as the sign-in that follows is: it is the account's first (sign-in notices).
      const { id } = await tx.user.create({ data: { ...user, createdAt: now }, select: { id: true } });
      await tx.companySsoIdentity.create({ data: { ...identity, userId: id, createdAt: now, lastSignInAt: now } });
      await recordAuditEvent(tx, identityEvent(identity, id, true));
      return { userId: id };
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const { issuer, subject } = identity;
    return (await db.companySsoIdentity.count({ where: { issuer, subject } })) ? "identity_taken" : "email_taken";
  }
}

/** Records a sign-in through the upstream account; false when it is linked to nobody. */
async function touchSsoIdentity(db: Db, { issuer, subject }: Omit<SsoIdentity, "companyId">, now = new Date()) {
  const { count } = await db.companySsoIdentity.updateMany({ where: { issuer, subject }, data: { lastSignInAt: now } });
  return count === 1;
}

export interface CompanySsoIdentityStore {
  /** The user the account is linked to for this company; null when unlinked or linked for another company. */
  findIdentity(identity: SsoIdentity): Promise<{ userId: string; lastSignInAt: Date | null } | null>;
  /** Links the account to an existing user (after it proved itself); "taken" when it is linked otherwise. */
  linkIdentity(identity: SsoIdentity, userId: string, now?: Date): Promise<"linked" | "taken">;
  /** Makes the user with the link, in one transaction, or neither. */
  createUserWithIdentity(
    user: NewUser,
    identity: SsoIdentity,
    now?: Date,
  ): Promise<{ userId: string } | "email_taken" | "identity_taken">;
  /** Records a sign-in through the account (its last_sign_in_at). */
  touchIdentity(identity: Omit<SsoIdentity, "companyId">, now?: Date): Promise<boolean>;
}

export const prismaCompanySsoIdentityStore = (db: Db): CompanySsoIdentityStore =>
  bindDb(db, {
    findIdentity: findSsoIdentity,
    linkIdentity: linkSsoIdentity,
    createUserWithIdentity: createUserWithSsoIdentity,
    touchIdentity: touchSsoIdentity,
  });
