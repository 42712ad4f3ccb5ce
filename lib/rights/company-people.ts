/**
 * Who may look after a company's people: the company's own administrators (role admin), for their company only, and
 * operators, for any company. Every function checks it here, where the people are read or changed, so a page, form
 * or route cannot reach another company's people.
 */
import "server-only";
import { companyPeople, actOnPeople, type PeopleRequest } from "@/lib/admin/company-people";
import type { UserJson } from "@/lib/admin/user-registry";
import { announceBackchannelLogout } from "@/lib/oauth/endsession/channel-logout";
import { AccessDenied, isOperator, requireUser, type Actor, type SignedInUser } from "@/lib/rights/actor";
import { requireSecondFactor } from "@/lib/admin/company-registry";

export { CompanyPeopleError, PEOPLE_ACTIONS } from "@/lib/admin/company-people";

export interface AdministeredCompany {
  id: string;
  name: string;
  kind: string;
  active: boolean;
  requireSecondFactor: boolean;
  /** an operator set the rule: only an operator lifts it */
  secondFactorRuleByOperator: boolean;
}

export interface CompanyPeopleView {
  company: AdministeredCompany;
  people: UserJson[];
  /** the acting user's email, so that the page does not offer them what they may not do to themselves */
  self: string;
}

export const isCompanyAdmin = (actor: Actor): boolean => actor.kind === "user" && actor.session.user.role === "admin";

/**
 * The company the actor administers: their own for a company administrator (a company id given must be theirs),
 * the one named for an operator. Anything else is refused, and an unknown company is one the actor may not see.
 */
export async function administeredCompany(
  actor: Actor,
  companyId: string | undefined,
): Promise<[SignedInUser, AdministeredCompany]> {
  const user = requireUser(actor);
  const operator = isOperator(user);
  if (!operator && (!isCompanyAdmin(user) || (companyId !== undefined && companyId !== user.company.id)))
    throw new AccessDenied("forbidden");
  const company = await user.context.stores.companies.find(
    operator && companyId !== undefined ? companyId : user.company.id,
  );
  if (!company) throw new AccessDenied("forbidden");
  const { id, name, kind, active, requireSecondFactor, secondFactorRuleByOperator } = company;
  return [user, { id, name, kind, active, requireSecondFactor, secondFactorRuleByOperator }];
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

/** Takes one action on the company's people; the action it turned out to be (an invitation may be sent again). */
export async function actOnCompanyPeople(
  actor: Actor,
  companyId: string | undefined,
  request: PeopleRequest,
): Promise<string> {
  const [user, company] = await administeredCompany(actor, companyId);
  const { context, session } = user;
  return actOnPeople(
    { ...context, announceLogout: (sessionIds) => announceBackchannelLogout(context, sessionIds) },
    company,
    {
      userId: session.user.id,
      name: `${session.user.givenName} ${session.user.familyName}`.trim(),
      operator: isOperator(user) && company.id !== user.company.id,
    },
    request,
  );
}
