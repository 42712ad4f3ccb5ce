/**
 * People one by one, by their user id (the management API's /users; operators and company administrators may use it
 * too): search by email or by words of the email and names, read one, deactivate, reactivate, unlock, change the role,
 * erase, reset the second factors, and a company's people with their ids. An operator and the operator's client with
 * the scope reach everyone; a company's administrator and its own client only that company's people, and anyone else
 * is as if absent (not found), never revealed. Every change goes through the pages' rules (company-people.ts) in the
 * person's company, which refuse any management client a change to the operator company's people.
 */
import "server-only";
import { invitedJson, userJson, UserRegistryError, type UserJson } from "@/lib/admin/user-registry";
import { resetSecondFactors } from "@/lib/admin/second-factor-reset";
import { AccessDenied, isOperator, requirePlatformAdmin, requireUser, type Actor } from "@/lib/rights/actor";
import {
  actOnCompanyPeople,
  companyAdministration,
  eraseCompanyPerson,
  isCompanyAdmin,
  PEOPLE_READ,
  PEOPLE_WRITE,
  type ManageScopes,
} from "@/lib/rights/company-people";
import { refuseClientOnOperatorCompany } from "@/lib/rights/operator-company-reach";
import type { ServiceContext } from "@/lib/service-context";
import type { ListedUser } from "@/lib/store/user-admin-store";
import type { UserPage } from "@/lib/store/user-search";

/** A user as the management API shows them: the CLI's `users list` entry with the user's id. */
export interface ManagedUser extends UserJson {
  id: string;
}

/** A person of a company's page: a user (with their id) or someone invited (with the invitation's id). */
export interface CompanyPerson extends UserJson {
  user_id: string | null;
  invitation_id: string | null;
}

export interface PeopleSearch {
  /** the whole address, compared in lower case */
  email?: string;
  /** words, each found in the email or a name */
  words?: string[];
  companyId?: string;
}

/** Whose people the actor reaches: every company's (no company id) or one company's. */
function peopleReach(actor: Actor, scopes: ManageScopes): { context: ServiceContext; companyId?: string } {
  if (actor.kind === "manager") {
    if (!actor.company) return { context: requirePlatformAdmin(actor, scopes.platform).context };
    if (!actor.scopes.has(scopes.company)) throw new AccessDenied("forbidden");
    return { context: actor.context, companyId: actor.company.id };
  }
  const user = requireUser(actor);
  if (isOperator(user)) return { context: user.context };
  if (!isCompanyAdmin(user)) throw new AccessDenied("forbidden");
  return { context: user.context, companyId: user.company.id };
}

const managed = (user: ListedUser): ManagedUser => ({ id: user.id, ...userJson(user) });

/** A page of the people found, in email order; naming a company the actor does not reach is refused. */
export async function searchPeople(actor: Actor, search: PeopleSearch, page: UserPage): Promise<ManagedUser[]> {
  const reach = peopleReach(actor, PEOPLE_READ);
  if (reach.companyId !== undefined && search.companyId !== undefined && search.companyId !== reach.companyId)
    throw new AccessDenied("forbidden");
  const where = {
    companyId: reach.companyId ?? search.companyId,
    email: search.email?.trim().toLowerCase(),
    words: search.words,
  };
  return (await reach.context.stores.people.search(where, page)).map(managed);
}

async function reachedUser(actor: Actor, userId: string, scopes: ManageScopes): Promise<ListedUser | undefined> {
  const { context, companyId } = peopleReach(actor, scopes);
  const [user] = await context.stores.people.search({ id: userId, companyId }, { limit: 1 });
  return user;
}

const noSuchUser = (userId: string) =>
  new UserRegistryError("not_found", `there is no user with the id "${userId.slice(0, 64)}"`);

async function requireReached(actor: Actor, userId: string, scopes: ManageScopes): Promise<ListedUser> {
  const user = await reachedUser(actor, userId, scopes);
  if (!user) throw noSuchUser(userId);
  return user;
}

/** One user, or undefined when the actor reaches none with this id (read to be changed: with the scopes to change). */
export async function personFor(
  actor: Actor,
  userId: string,
  scopes: ManageScopes = PEOPLE_READ,
): Promise<ManagedUser | undefined> {
  const user = await reachedUser(actor, userId, scopes);
  return user && managed(user);
}

/** What may be done to one user by their id, as their company's page does it. */
export type PersonAction = { action: "deactivate" | "activate" | "unlock" } | { action: "role"; role: string };

/**
 * Deactivates (signed out everywhere), activates, unlocks or changes the role of a user by the rules of their company's
 * page; the user as they are now.
 */
export async function actOnPerson(actor: Actor, userId: string, change: PersonAction): Promise<ManagedUser> {
  const user = await requireReached(actor, userId, PEOPLE_WRITE);
  await actOnCompanyPeople(actor, user.companyId, { ...change, email: user.email });
  return managed(await requireReached(actor, userId, PEOPLE_WRITE));
}

/**
 * Erases a user for good, as `users remove` does, with the rules of deactivating them: the operator's and the
 * operator's client's (company-people.ts refuses a company's client, and anyone else a person an operator deactivated).
 */
export async function erasePersonById(actor: Actor, userId: string): Promise<void> {
  const user = await requireReached(actor, userId, PEOPLE_WRITE);
  await eraseCompanyPerson(actor, user.companyId, user.email);
}

/**
 * Removes a user's passkeys, authenticator app and recovery codes and mails them a notice (`users reset-second-factor`):
 * the operator's alone, as on the command line. A company's administrators may not: a locked account with a second
 * factor is theirs to unlock only by a right factor (the page's rule), which a reset would get around.
 */
export async function resetPersonSecondFactors(actor: Actor, userId: string): Promise<{ removed: number }> {
  const { context, by } = requirePlatformAdmin(actor, PEOPLE_WRITE.platform);
  const [user] = await context.stores.people.search({ id: userId }, { limit: 1 });
  if (!user) throw noSuchUser(userId);
  refuseClientOnOperatorCompany(actor, await context.stores.companies.find(user.companyId));
  const reset = await resetSecondFactors(context, user.email, by);
  if (!reset) throw noSuchUser(userId);
  return { removed: reset.removed };
}

/** The company's people as its page shows them (users and people invited), each with their id, by email. */
export async function companyPeopleFor(actor: Actor, companyId: string): Promise<CompanyPerson[]> {
  const { context, company } = await companyAdministration(actor, companyId, PEOPLE_READ);
  const [users, invited] = await Promise.all([
    context.stores.people.list({ companyId: company.id }),
    context.stores.invitations.listPending({ companyId: company.id }),
  ]);
  return [
    ...users.map((user) => ({ ...userJson(user), user_id: user.id, invitation_id: null })),
    ...invited.map((invitation) => ({ ...invitedJson(invitation), user_id: null, invitation_id: invitation.id })),
  ].sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
}
