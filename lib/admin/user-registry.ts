/**
 * Users as the operator manages them (`users list|deactivate|activate|unlock`, CONTRACT §9): a user's status is
 * `deactivated`, `locked` (sign-in refused for a while after failed attempts) or `active`. Emails are user names,
 * compared in lower case as sign-in does.
 */
import { OptiGateError } from "@/lib/errors/optigate-error";
import type { Db } from "@/lib/db/prisma";
import { activateUser, deactivateUser, listUsers, unlockUser, type ListedUser } from "@/lib/store/user-admin-store";

class UserRegistryError extends OptiGateError<"not_found" | "invalid_state"> {
  constructor(
    readonly code: "not_found" | "invalid_state",
    message: string,
  ) {
    super(message);
  }
}

type UserStatus = "active" | "deactivated" | "locked";

/** A user as the CLI prints it. */
export interface UserJson {
  email: string;
  company: string;
  role: string;
  status: UserStatus;
  given_name: string;
  family_name: string;
  locked_until?: string;
  created_at: string;
}

const statusOf = (user: ListedUser): UserStatus =>
  !user.active ? "deactivated" : user.lockedUntil ? "locked" : "active";

function userJson(user: ListedUser): UserJson {
  return {
    email: user.email,
    company: user.companyId,
    role: user.role,
    status: statusOf(user),
    given_name: user.givenName,
    family_name: user.familyName,
    ...(user.lockedUntil && user.active ? { locked_until: user.lockedUntil.toISOString() } : {}),
    created_at: user.createdAt.toISOString(),
  };
}

const noSuchUser = (email: string) => new UserRegistryError("not_found", `there is no user "${email}"`);

export async function listUsersJson(db: Db, companyId?: string): Promise<UserJson[]> {
  return (await listUsers(db, { companyId })).map(userJson);
}

async function shownUser(db: Db, email: string): Promise<UserJson> {
  const [user] = await listUsers(db, { email });
  if (!user) throw noSuchUser(email);
  return userJson(user);
}

/** Deactivates a user: signed out everywhere, refresh tokens revoked, their applications told. */
export async function deactivate(
  db: Db,
  email: string,
  announceLogout: (sessionIds: string[]) => Promise<void>,
  by?: string,
): Promise<UserJson> {
  const username = email.toLowerCase();
  const outcome = await deactivateUser(db, username, by);
  if (outcome === "not_found") throw noSuchUser(username);
  if (outcome === "unchanged")
    throw new UserRegistryError("invalid_state", `user "${username}" is deactivated already`);
  await announceLogout(outcome);
  return shownUser(db, username);
}

export async function activate(db: Db, email: string, by?: string): Promise<UserJson> {
  const username = email.toLowerCase();
  const outcome = await activateUser(db, username, by);
  if (outcome === "not_found") throw noSuchUser(username);
  if (outcome === "unchanged") throw new UserRegistryError("invalid_state", `user "${username}" is active already`);
  if (outcome === "company_inactive")
    throw new UserRegistryError("invalid_state", `the company of "${username}" is deactivated; activate it first`);
  return shownUser(db, username);
}

/** Lifts a sign-in lock-out after failed attempts. */
export async function unlock(db: Db, email: string, by?: string): Promise<UserJson> {
  const username = email.toLowerCase();
  if ((await unlockUser(db, username, by)) === "not_found") throw noSuchUser(username);
  return shownUser(db, username);
}
