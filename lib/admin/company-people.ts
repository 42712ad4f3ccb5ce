/**
 * A company's people as its administrators and the operator look after them (/portal/company,
 * /admin/companies/<id>): invite, send an invitation again, revoke it, change a role, deactivate and activate, lift a
 * sign-in lock-out.
 * Every action names the company it is taken in, and a person of another company is refused as if absent. The
 * last active administrator cannot demote or deactivate themselves: the company would have nobody to look after it.
 */
import { OptiGateError } from "@/lib/errors/optigate-error";
import type { DataAccess } from "@/lib/service-context";
import type { ThrottleStore } from "@/lib/store/throttle-store";
import type { Config } from "@/lib/config";
import type { Stores } from "@/lib/store/stores";
import type { Locale } from "@/lib/i18n/locales";
import { InvitationError, invitePerson, revokeInvitation, type Inviter } from "@/lib/admin/invitations";
import { INVITATION_LIMITS } from "@/lib/config/policy";
import { countRequest } from "@/lib/session/request-rate";
import type { SecondFactorStore } from "@/lib/store/second-factor-store";

const hasSecondFactor = async (secondFactors: SecondFactorStore, userId: string) => {
  const factors = await secondFactors.count(userId);
  return factors.passkeys > 0 || factors.totp;
};
import { isLocale } from "@/lib/i18n/locales";
import { checkRoleFits, parseEmail, parseLanguage, parseRole, type Role } from "@/lib/admin/person-fields";
import { activate, deactivate, listUsersJson, unlock, type UserJson } from "@/lib/admin/user-registry";

export const PEOPLE_ACTIONS = ["invite", "resend", "revoke", "role", "deactivate", "activate", "unlock"] as const;
type PeopleAction = (typeof PEOPLE_ACTIONS)[number];

const ADDRESS_TAKEN: readonly string[] = ["already_user", "invited_elsewhere"];

/** Invitation mail leaves OptiGate's own sender: a company and each of its administrators send a bounded amount. */
async function limitInvitations(throttles: ThrottleStore, companyId: string, actor: PeopleActor): Promise<void> {
  if (actor.operator) return;
  const waits = [
    await countRequest(throttles, `invite-company:${companyId}`, INVITATION_LIMITS.company),
    await countRequest(throttles, `invite-inviter:${actor.userId}`, INVITATION_LIMITS.inviter),
  ];
  if (waits.some((wait) => wait > 0)) throw new InvitationError("throttled", "too many invitations sent: try later");
}

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
}

/** Who acts: their user id and name, and whether they act as the operator (who may act on themselves freely). */
export interface PeopleActor extends Inviter {
  operator: boolean;
}

export type PeopleContext = DataAccess & {
  config: Pick<Config, "publicUrl" | "secretKey">;
  announceLogout: (sessionIds: string[]) => Promise<void>;
};

export const companyPeople = (stores: Stores, companyId: string): Promise<UserJson[]> =>
  listUsersJson(stores, companyId);

const notInCompany = (email: string) => new CompanyPeopleError("not_in_company", `${email} is not in this company`);

async function memberOf(stores: Stores, companyId: string, email: string) {
  const [user] = await stores.people.list({ email });
  if (!user || user.companyId !== companyId) throw notInCompany(email);
  return user;
}

async function pendingIn(stores: Stores, companyId: string, email: string) {
  const [invitation] = await stores.invitations.listPending({ email, companyId });
  if (!invitation) throw notInCompany(email);
  return invitation;
}

/** The last active administrator taking away their own rights. */
async function refuseLastAdminLeaving(
  stores: Stores,
  companyId: string,
  actor: PeopleActor,
  target: { id: string; role: string },
) {
  if (actor.operator || target.id !== actor.userId || target.role !== "admin") return;
  if ((await stores.people.countActiveAdmins(companyId)) <= 1)
    throw new CompanyPeopleError("last_admin", "the company's last administrator cannot give up that role");
}

/** Takes the action; the action it turned out to be (inviting someone invited already sends it again). */
export async function actOnPeople(
  context: PeopleContext,
  { id: companyId, kind: companyKind }: { id: string; kind: string },
  actor: PeopleActor,
  request: PeopleRequest,
): Promise<PeopleAction> {
  const { stores } = context;
  const email = parseEmail(request.email);
  const inviter = { userId: actor.userId, name: actor.name };
  if (request.action === "invite") {
    const role: Role = parseRole(request.role ?? "user");
    const language: Locale = parseLanguage(request.language ?? "en");
    const earlier = await stores.invitations.listPending({ email, companyId });
    await limitInvitations(context.stores.throttles, companyId, actor);
    try {
      await invitePerson(context, { email, companyId, role, language }, inviter);
    } catch (error) {
      // A company administrator learns nothing of addresses outside the company: the answer is the same.
      if (!actor.operator && error instanceof InvitationError && ADDRESS_TAKEN.includes(error.code)) return "invite";
      throw error;
    }
    // Inviting someone invited already sends the invitation again: the page says that the earlier link is dead.
    return earlier.length > 0 ? "resend" : "invite";
  } else if (request.action === "resend") {
    const pending = await pendingIn(stores, companyId, email);
    const language = isLocale(pending.language) ? pending.language : "en";
    await limitInvitations(context.stores.throttles, companyId, actor);
    await invitePerson(context, { email, companyId, role: parseRole(pending.role), language }, inviter);
  } else if (request.action === "revoke") {
    await pendingIn(stores, companyId, email);
    await revokeInvitation(stores, email, companyId, actor.userId);
  } else {
    const user = await memberOf(stores, companyId, email);
    const decision = { byOperator: actor.operator };
    if (request.action === "activate") await activate(stores, email, actor.userId, decision);
    else if (request.action === "unlock") {
      // Guessed second-factor codes count on the same lock: only a right factor (or an operator) clears it.
      if (!actor.operator && (await hasSecondFactor(context.stores.secondFactors, user.id)))
        throw new CompanyPeopleError("second_factor_lock", "the person has a second factor");
      await unlock(stores, email, actor.userId);
    } else if (request.action === "deactivate") {
      await refuseLastAdminLeaving(stores, companyId, actor, user);
      await deactivate(stores, email, context.announceLogout, actor.userId, decision);
    } else {
      const role = checkRoleFits(parseRole(request.role ?? ""), companyKind);
      if (role !== "admin") await refuseLastAdminLeaving(stores, companyId, actor, user);
      await stores.people.changeRole(email, role, actor.userId);
    }
  }
  return request.action;
}
