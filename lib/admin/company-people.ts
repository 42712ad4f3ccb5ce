/**
 * A company's people as its administrators and the operator look after them (/portal/company,
 * /admin/companies/<id>, and the management API's /users and invitations): invite, send an invitation again, revoke
 * it, change a role, deactivate and activate, lift a sign-in lock-out, and (the API) erase.
 * Every action names the company it is taken in, and a person of another company is refused as if absent. The
 * company's last active administrator cannot be demoted, deactivated or erased by anyone but the operator: a person
 * can only give up their own rights that way, and a management client, which has no account, never leaves the company
 * without an administrator either.
 */
import { OptiGateError } from "@/lib/errors/optigate-error";
import type { DataAccess } from "@/lib/service-context";
import type { ThrottleStore } from "@/lib/store/throttle-store";
import type { Config } from "@/lib/config";
import type { Stores } from "@/lib/store/stores";
import type { ListedUser } from "@/lib/store/user-admin-store";
import { isLocale, type Locale } from "@/lib/i18n/locales";
import { InvitationError, invitePerson, revokeInvitation, type Inviter } from "@/lib/admin/invitations";
import { INVITATION_LIMITS } from "@/lib/config/policy";
import { countRequest } from "@/lib/session/request-rate";
import type { SecondFactorStore } from "@/lib/store/second-factor-store";
import { checkRoleFits, parseEmail, parseLanguage, parseName, parseRole, type Role } from "@/lib/admin/person-fields";
import { activate, deactivate, listUsersJson, remove, unlock, type UserJson } from "@/lib/admin/user-registry";

export const PEOPLE_ACTIONS = ["invite", "resend", "revoke", "role", "deactivate", "activate", "unlock"] as const;
type PeopleAction = (typeof PEOPLE_ACTIONS)[number];

const ADDRESS_TAKEN: readonly string[] = ["already_user", "invited_elsewhere"];

const hasSecondFactor = async (secondFactors: SecondFactorStore, userId: string) => {
  const factors = await secondFactors.count(userId);
  return factors.passkeys > 0 || factors.totp;
};

export class CompanyPeopleError extends OptiGateError<"not_in_company" | "last_admin" | "second_factor_lock"> {
  constructor(
    readonly code: "not_in_company" | "last_admin" | "second_factor_lock",
    message: string,
  ) {
    super(message);
  }
}

export interface PeopleRequest {
  action: PeopleAction;
  email: string;
  role?: string;
  language?: string;
  /** an invitation's names (the management API; the pages' form asks the person instead) */
  givenName?: string;
  familyName?: string;
}

/**
 * Who acts, and whether as the operator (who may act on anyone freely): a person (named in the audit trail and the
 * invitation mail), or a management client, which has no account and so no "self" (the audit trail names it).
 */
export interface PeopleActor {
  operator: boolean;
  /** the acting person; absent for a management client */
  user?: Inviter;
  /** the acting management client, whose invitations count as a person's do */
  clientId?: string;
}

export type PeopleContext = DataAccess & {
  config: Pick<Config, "publicUrl" | "secretKey">;
  announceLogout: (sessionIds: string[]) => Promise<void>;
};

/** Invitation mail leaves OptiGate's own sender: a company and each of its inviters send a bounded amount. */
async function limitInvitations(throttles: ThrottleStore, companyId: string, actor: PeopleActor): Promise<void> {
  if (actor.operator) return;
  const inviter = actor.user ? actor.user.userId : `client:${actor.clientId}`;
  const waits = [
    await countRequest(throttles, `invite-company:${companyId}`, INVITATION_LIMITS.company),
    await countRequest(throttles, `invite-inviter:${inviter}`, INVITATION_LIMITS.inviter),
  ];
  if (waits.some((wait) => wait > 0)) throw new InvitationError("throttled", "too many invitations sent: try later");
}

export const companyPeople = (stores: Stores, companyId: string): Promise<UserJson[]> =>
  listUsersJson(stores, companyId);

const notInCompany = (email: string) => new CompanyPeopleError("not_in_company", `${email} is not in this company`);

async function memberOf(stores: Stores, companyId: string, email: string): Promise<ListedUser> {
  const [user] = await stores.people.list({ email });
  if (!user || user.companyId !== companyId) throw notInCompany(email);
  return user;
}

async function pendingIn(stores: Stores, companyId: string, email: string) {
  const [invitation] = await stores.invitations.listPending({ email, companyId });
  if (!invitation) throw notInCompany(email);
  return invitation;
}

/** The company's last active administrator losing that role: only by the operator, or by the person themselves. */
async function refuseLastAdminLeaving(stores: Stores, companyId: string, actor: PeopleActor, target: ListedUser) {
  if (actor.operator || target.role !== "admin" || !target.active) return;
  // A person may act on another administrator: they are one themselves, so the company keeps one.
  if (actor.user && target.id !== actor.user.userId) return;
  if ((await stores.people.countActiveAdmins(companyId)) <= 1)
    throw new CompanyPeopleError("last_admin", "the company's last administrator cannot give up that role");
}

const optionalName = (raw: string | undefined, field: "given_name" | "family_name") =>
  raw === undefined ? undefined : parseName(raw, field);

async function invite(context: PeopleContext, company: { id: string }, actor: PeopleActor, request: PeopleRequest) {
  const email = parseEmail(request.email);
  const role: Role = parseRole(request.role ?? "user");
  const language: Locale = parseLanguage(request.language ?? "en");
  const names = {
    givenName: optionalName(request.givenName, "given_name"),
    familyName: optionalName(request.familyName, "family_name"),
  };
  const earlier = await context.stores.invitations.listPending({ email, companyId: company.id });
  await limitInvitations(context.stores.throttles, company.id, actor);
  try {
    await invitePerson(context, { email, companyId: company.id, role, language, ...names }, actor.user);
  } catch (error) {
    // Only the operator learns of addresses outside the company: anyone else gets the same answer.
    if (!actor.operator && error instanceof InvitationError && ADDRESS_TAKEN.includes(error.code)) return "invite";
    throw error;
  }
  // Inviting someone invited already sends the invitation again: the page says that the earlier link is dead.
  return earlier.length > 0 ? "resend" : "invite";
}

async function resend(context: PeopleContext, companyId: string, actor: PeopleActor, email: string) {
  const pending = await pendingIn(context.stores, companyId, email);
  const language = isLocale(pending.language) ? pending.language : "en";
  const names = { givenName: pending.givenName ?? undefined, familyName: pending.familyName ?? undefined };
  await limitInvitations(context.stores.throttles, companyId, actor);
  const request = { email, companyId, role: parseRole(pending.role), language, ...names };
  await invitePerson(context, request, actor.user);
}

async function actOnMember(
  context: PeopleContext,
  { id: companyId, kind: companyKind }: { id: string; kind: string },
  actor: PeopleActor,
  request: PeopleRequest & { email: string },
): Promise<void> {
  const { stores } = context;
  const { email } = request;
  const user = await memberOf(stores, companyId, email);
  const by = actor.user?.userId;
  const decision = { byOperator: actor.operator };
  if (request.action === "activate") await activate(stores, email, by, decision);
  else if (request.action === "unlock") {
    // Guessed second-factor codes count on the same lock: only a right factor (or an operator) clears it.
    if (!actor.operator && (await hasSecondFactor(stores.secondFactors, user.id)))
      throw new CompanyPeopleError("second_factor_lock", "the person has a second factor");
    await unlock(stores, email, by);
  } else if (request.action === "deactivate") {
    await refuseLastAdminLeaving(stores, companyId, actor, user);
    await deactivate(stores, email, context.announceLogout, by, decision);
  } else {
    const role = checkRoleFits(parseRole(request.role ?? ""), companyKind);
    if (role !== "admin") await refuseLastAdminLeaving(stores, companyId, actor, user);
    await stores.people.changeRole(email, role, by);
  }
}

/** Takes the action; the action it turned out to be (inviting someone invited already sends it again). */
export async function actOnPeople(
  context: PeopleContext,
  company: { id: string; kind: string },
  actor: PeopleActor,
  request: PeopleRequest,
): Promise<PeopleAction> {
  if (request.action === "invite") return invite(context, company, actor, request);
  const email = parseEmail(request.email);
  if (request.action === "resend") await resend(context, company.id, actor, email);
  else if (request.action === "revoke") {
    await pendingIn(context.stores, company.id, email);
    await revokeInvitation(context.stores, email, company.id, actor.user?.userId);
  } else await actOnMember(context, company, actor, { ...request, email });
  return request.action;
}

/**
 * Erases a person of the company for good (`users remove`: signed out first, their applications told; the audit trail
 * keeps a pseudonym), with the rules of deactivating them.
 */
export async function erasePerson(
  context: PeopleContext,
  companyId: string,
  actor: PeopleActor,
  rawEmail: string,
): Promise<void> {
  const email = parseEmail(rawEmail);
  const user = await memberOf(context.stores, companyId, email);
  await refuseLastAdminLeaving(context.stores, companyId, actor, user);
  await remove(context.stores, email, context.announceLogout, actor.user?.userId);
}
