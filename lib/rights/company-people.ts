/**
 * Who may look after a company's people: the company's own administrators (role admin), for their company only, and
 * operators, for any company; on the management API, an operator's client with the scope (any company, as an
 * operator) and a company's own client with its company scope (its company only, as its administrators). Every
 * function checks it here, where the people are read or changed, so a page, form or route cannot reach another
 * company's people. No management client changes the operator company's people (operator-company-reach.ts), and
 * erasing is the operator's and the operator's client's alone.
 */
import "server-only";
import {
  companyPeople,
  actOnPeople,
  erasePerson,
  type PeopleActor,
  type PeopleRequest,
} from "@/lib/admin/company-people";
import { CompanyRegistryError, requireSecondFactor, switchSignInNotices } from "@/lib/admin/company-registry";
import { parseEmail } from "@/lib/admin/person-fields";
import { UserRegistryError, type UserJson } from "@/lib/admin/user-registry";
import { announceBackchannelLogout } from "@/lib/oauth/endsession/channel-logout";
import {
  AccessDenied,
  isOperator,
  requirePlatformAdmin,
  requireUser,
  type Actor,
  type SignedInUser,
} from "@/lib/rights/actor";
import { refuseClientOnOperatorCompany } from "@/lib/rights/operator-company-reach";
import type { Company } from "@/lib/store/models/user";
import type { ServiceContext } from "@/lib/service-context";
import { signInNoticesOn } from "@/lib/session/sign-in-notice-rule";

export { CompanyPeopleError, PEOPLE_ACTIONS } from "@/lib/admin/company-people";

export interface AdministeredCompany {
  id: string;
  name: string;
  kind: string;
  active: boolean;
  requireSecondFactor: boolean;
  /** an operator set the rule: only an operator lifts it */
  secondFactorRuleByOperator: boolean;
  /** its people are mailed of sign-ins from browsers new to their accounts */
  signInNotices: boolean;
}

export interface CompanyPeopleView {
  company: AdministeredCompany;
  people: UserJson[];
  /** the acting user's email, so that the page does not offer them what they may not do to themselves */
  self: string;
}

/** The management API's scopes for a kind of company administration: the operator's, and a company's own. */
export interface ManageScopes {
  platform: string;
  company: string;
}

export const PEOPLE_READ: ManageScopes = { platform: "manage.users.read", company: "manage.company.users.read" };
export const PEOPLE_WRITE: ManageScopes = { platform: "manage.users.write", company: "manage.company.users.write" };

/** Who administers the company, and as whom the rules and the audit trail see them. */
export interface CompanyAdministration {
  context: ServiceContext;
  company: AdministeredCompany;
  /** as the rules of company-people.ts see the actor */
  actor: PeopleActor;
  /** the acting person; absent for a management client */
  user?: SignedInUser;
}

export const isCompanyAdmin = (actor: Actor): boolean => actor.kind === "user" && actor.session.user.role === "admin";

function shown(company: Company): AdministeredCompany {
  const { id, name, kind, active, requireSecondFactor, secondFactorRuleByOperator } = company;
  return {
    id,
    name,
    kind,
    active,
    requireSecondFactor,
    secondFactorRuleByOperator,
    signInNotices: signInNoticesOn(company),
  };
}

/** A management client's company: any named one for the operator's client, its own for a company's client. */
async function clientAdministration(
  actor: Extract<Actor, { kind: "manager" }>,
  companyId: string | undefined,
  scopes: ManageScopes | undefined,
): Promise<CompanyAdministration> {
  if (!scopes) throw new AccessDenied("forbidden");
  const actingAs = { clientId: actor.clientId };
  if (!actor.company) {
    const { context } = requirePlatformAdmin(actor, scopes.platform);
    // The operator's client has no company of its own to fall back on.
    if (companyId === undefined) throw new AccessDenied("forbidden");
    const company = await context.stores.companies.find(companyId);
    if (!company) throw new CompanyRegistryError("not_found", `there is no company "${companyId.slice(0, 64)}"`);
    return { context, company: shown(company), actor: { ...actingAs, operator: true } };
  }
  if (!actor.scopes.has(scopes.company) || (companyId !== undefined && companyId !== actor.company.id))
    throw new AccessDenied("forbidden");
  const company = await actor.context.stores.companies.find(actor.company.id);
  if (!company) throw new AccessDenied("forbidden");
  return { context: actor.context, company: shown(company), actor: { ...actingAs, operator: false } };
}

/**
 * The company the actor administers: their own for a company administrator (a company id given must be theirs),
 * the one named for an operator, and for a management client as `scopes` allow it. Anything else is refused, and an
 * unknown company is one a person may not see.
 */
export async function companyAdministration(
  actor: Actor,
  companyId: string | undefined,
  scopes?: ManageScopes,
): Promise<CompanyAdministration> {
  if (actor.kind === "manager") return clientAdministration(actor, companyId, scopes);
  const user = requireUser(actor);
  const operator = isOperator(user);
  if (!operator && (!isCompanyAdmin(user) || (companyId !== undefined && companyId !== user.company.id)))
    throw new AccessDenied("forbidden");
  const company = await user.context.stores.companies.find(
    operator && companyId !== undefined ? companyId : user.company.id,
  );
  if (!company) throw new AccessDenied("forbidden");
  const { session } = user;
  const person = { userId: session.user.id, name: `${session.user.givenName} ${session.user.familyName}`.trim() };
  // The operator acts freely on other companies; in their own, by its rules, as its administrators do.
  const actingAs = { operator: operator && company.id !== user.company.id, user: person };
  return { context: user.context, company: shown(company), actor: actingAs, user };
}

/** The company a person administers, for the pages (a management client is refused). */
export async function administeredCompany(
  actor: Actor,
  companyId: string | undefined,
): Promise<[SignedInUser, AdministeredCompany]> {
  const { user, company } = await companyAdministration(actor, companyId);
  if (!user) throw new AccessDenied("forbidden");
  return [user, company];
}

export async function companyPeopleView(actor: Actor, companyId?: string): Promise<CompanyPeopleView> {
  const [user, company] = await administeredCompany(actor, companyId);
  return { company, people: await companyPeople(user.context.stores, company.id), self: user.session.user.email };
}

/** Requires a second factor of everyone in the company, or stops requiring it. */
export async function setCompanySecondFactor(
  actor: Actor,
  companyId: string | undefined,
  required: boolean,
): Promise<void> {
  const [user, company] = await administeredCompany(actor, companyId);
  const change = { required, byOperator: isOperator(user), by: user.session.user.id, keepSessionId: user.session.id };
  await requireSecondFactor(user.context.stores, company.id, change, (ids) =>
    announceBackchannelLogout(user.context, ids),
  );
}

/**
 * Mails the company's people of sign-ins from browsers new to their accounts, or stops it: its administrators' switch
 * and the operator's.
 */
export async function setCompanySignInNotices(actor: Actor, companyId: string | undefined, on: boolean): Promise<void> {
  const [user, company] = await administeredCompany(actor, companyId);
  await switchSignInNotices(user.context.stores, company.id, on, user.session.user.id);
}

const peopleContext = (context: ServiceContext) => ({
  ...context,
  announceLogout: (sessionIds: string[]) => announceBackchannelLogout(context, sessionIds),
});

/** Takes one action on the company's people; the action it turned out to be (an invitation may be sent again). */
export async function actOnCompanyPeople(
  actor: Actor,
  companyId: string | undefined,
  request: PeopleRequest,
): Promise<string> {
  const { context, company, actor: actingAs } = await companyAdministration(actor, companyId, PEOPLE_WRITE);
  refuseClientOnOperatorCompany(actor, company);
  return actOnPeople(peopleContext(context), company, actingAs, request);
}

/**
 * Erases a person of the company for good, by the rules of deactivating them (the management API). The operator's, as
 * `users remove` is: no company page offers it, so a company's client may not; and a person an operator deactivated is
 * the operator's to erase, as to reactivate.
 */
export async function eraseCompanyPerson(actor: Actor, companyId: string | undefined, email: string): Promise<void> {
  if (actor.kind === "manager" && actor.company) throw new AccessDenied("forbidden");
  const { context, company, actor: actingAs } = await companyAdministration(actor, companyId, PEOPLE_WRITE);
  refuseClientOnOperatorCompany(actor, company);
  const address = parseEmail(email);
  const operatorSide = isOperator(actor) || actor.kind === "manager";
  if (!operatorSide && (await context.stores.users.findByEmail(address))?.deactivatedByOperator)
    throw new UserRegistryError(
      "operator_decision",
      `an operator deactivated "${address}": only an operator can erase them`,
    );
  await erasePerson(peopleContext(context), company.id, actingAs, address);
}
