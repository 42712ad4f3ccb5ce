/**
 * Users as the operator manages them (`users list|deactivate|activate|unlock|remove`): a user's status
 * is `invited` (not joined yet), `deactivated`, `locked` (sign-in refused for a while after failed attempts) or
 * `active`. Emails are user names, compared in lower case as sign-in does.
 */
import { OptiGateError } from "@/lib/errors/optigate-error";
import type { Stores } from "@/lib/store/stores";
import { type ListedUser, type UserDecision } from "@/lib/store/user-admin-store";
import { type PendingInvitation } from "@/lib/store/invitation-store";

export class UserRegistryError extends OptiGateError<"not_found" | "invalid_state" | "operator_decision"> {
  constructor(
    readonly code: "not_found" | "invalid_state" | "operator_decision",
    message: string,
  ) {
    super(message);
  }
}

type UserStatus = "invited" | "active" | "deactivated" | "locked";

/** A user as the CLI prints it. */
export interface UserJson {
  email: string;
  company: string;
  role: string;
  status: UserStatus;
  given_name: string;
  family_name: string;
  locked_until?: string;
  last_sign_in_at?: string;
  /** invited people: when their link stops working */
  invitation_expires_at?: string;
  created_at: string;
}

const statusOf = (user: ListedUser): UserStatus =>
  !user.active ? "deactivated" : user.lockedUntil ? "locked" : "active";

export function userJson(user: ListedUser): UserJson {
  return {
    email: user.email,
    company: user.companyId,
    role: user.role,
    status: statusOf(user),
    given_name: user.givenName,
    family_name: user.familyName,
    ...(user.lockedUntil && user.active ? { locked_until: user.lockedUntil.toISOString() } : {}),
    ...(user.lastSignInAt ? { last_sign_in_at: user.lastSignInAt.toISOString() } : {}),
    created_at: user.createdAt.toISOString(),
  };
}

const noSuchUser = (email: string) => new UserRegistryError("not_found", `there is no user "${email}"`);

export function invitedJson(invitation: PendingInvitation): UserJson {
  return {
    email: invitation.email,
    company: invitation.companyId,
    role: invitation.role,
    status: "invited",
    given_name: "",
    family_name: "",
    invitation_expires_at: invitation.expiresAt.toISOString(),
    created_at: invitation.createdAt.toISOString(),
  };
}

/** The users, and the people invited who have not joined yet, by company and email. */
export async function listUsersJson(stores: Stores, companyId?: string): Promise<UserJson[]> {
  const [users, invited] = await Promise.all([
    stores.people.list({ companyId }),
    stores.invitations.listPending({ companyId }),
  ]);
  return [...users.map(userJson), ...invited.map(invitedJson)].sort(
    (a, b) => a.company.localeCompare(b.company) || a.email.localeCompare(b.email),
  );
}

async function shownUser(stores: Stores, email: string): Promise<UserJson> {
  const [user] = await stores.people.list({ email });
  if (!user) throw noSuchUser(email);
  return userJson(user);
}

/**
 * Deactivates a user: signed out everywhere, refresh tokens revoked, their applications told. By an operator unless
 * the decision says otherwise.
 */
export async function deactivate(
  stores: Stores,
  email: string,
  announceLogout: (sessionIds: string[]) => Promise<void>,
  by?: string,
  decision: Pick<UserDecision, "byOperator"> = { byOperator: true },
): Promise<UserJson> {
  const username = email.toLowerCase();
  const outcome = await stores.people.deactivate(username, { by, ...decision });
  if (outcome === "not_found") throw noSuchUser(username);
  if (outcome === "unchanged")
    throw new UserRegistryError("invalid_state", `user "${username}" is deactivated already`);
  await announceLogout(outcome);
  return shownUser(stores, username);
}

export async function activate(
  stores: Stores,
  email: string,
  by?: string,
  decision: Pick<UserDecision, "byOperator"> = { byOperator: true },
): Promise<UserJson> {
  const username = email.toLowerCase();
  const outcome = await stores.people.activate(username, { by, ...decision });
  if (outcome === "not_found") throw noSuchUser(username);
  if (outcome === "unchanged") throw new UserRegistryError("invalid_state", `user "${username}" is active already`);
  if (outcome === "company_inactive")
    throw new UserRegistryError("invalid_state", `the company of "${username}" is deactivated; activate it first`);
  if (outcome === "operator_decision")
    throw new UserRegistryError(
      "operator_decision",
      `an operator deactivated "${username}": only an operator can undo it`,
    );
  return shownUser(stores, username);
}

/** Lifts a sign-in lock-out after failed attempts. */
export async function unlock(stores: Stores, email: string, by?: string): Promise<UserJson> {
  const username = email.toLowerCase();
  if ((await stores.people.unlock(username, by)) === "not_found") throw noSuchUser(username);
  return shownUser(stores, username);
}

/**
 * Removes a user for good (signed out first, their applications told), or erases the invitation of someone who has
 * not joined yet.
 */
export async function remove(
  stores: Stores,
  email: string,
  announceLogout: (sessionIds: string[]) => Promise<void>,
  by?: string,
): Promise<{ email: string; status: "removed" }> {
  const username = email.toLowerCase();
  const signedOut = await stores.people.deactivate(username, { by, byOperator: true });
  if (signedOut === "not_found") {
    if ((await stores.people.eraseInvited(username, by)) === "not_found") throw noSuchUser(username);
  } else {
    if (signedOut !== "unchanged") await announceLogout(signedOut);
    await stores.people.remove(username, by);
  }
  return { email: username, status: "removed" };
}
