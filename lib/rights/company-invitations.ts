/**
 * A company's invitations by their id (the management API's /companies/<id>/invitations): list, read, invite, send
 * again, revoke. Who may is who may look after the company's people (company-people.ts), and each change is the
 * company page's own action on the invitation's address, with its rules and answers: so no management client invites
 * anyone into the operator company, or sends again or revokes an invitation there (actOnCompanyPeople refuses it).
 */
import "server-only";
import { invitationJson, InvitationError, type InvitationJson } from "@/lib/admin/invitations";
import type { Actor } from "@/lib/rights/actor";
import type { PeopleRequest } from "@/lib/admin/company-people";
import {
  actOnCompanyPeople,
  companyAdministration,
  PEOPLE_READ,
  PEOPLE_WRITE,
  type ManageScopes,
} from "@/lib/rights/company-people";

/** What an invitation asks for: the address, and optionally role, language and names. */
export type InvitationAsked = Omit<PeopleRequest, "action">;

async function pendingInvitations(
  actor: Actor,
  companyId: string,
  where: { email?: string; id?: string },
  scopes: ManageScopes,
) {
  const { context, company } = await companyAdministration(actor, companyId, scopes);
  return context.stores.invitations.listPending({ ...where, companyId: company.id });
}

/** The company's pending invitations (expired ones too), by email; of one address when given. */
export async function companyInvitationsFor(
  actor: Actor,
  companyId: string,
  email?: string,
): Promise<InvitationJson[]> {
  const where = email === undefined ? {} : { email: email.trim().toLowerCase() };
  return (await pendingInvitations(actor, companyId, where, PEOPLE_READ)).map((row) => invitationJson(row));
}

/** One pending invitation of the company, or undefined. */
export async function invitationFor(
  actor: Actor,
  companyId: string,
  invitationId: string,
): Promise<InvitationJson | undefined> {
  const [row] = await pendingInvitations(actor, companyId, { id: invitationId }, PEOPLE_READ);
  return row && invitationJson(row);
}

/**
 * Invites a person into the company, as its page does (an address invited already is sent the invitation again):
 * whether it was sent again. Only the operator learns that an address is taken elsewhere; anyone else gets the same
 * answer as for any address.
 */
export async function inviteIntoCompany(actor: Actor, companyId: string, asked: InvitationAsked): Promise<boolean> {
  return (await actOnCompanyPeople(actor, companyId, { ...asked, action: "invite" })) === "resend";
}

const noInvitation = (invitationId: string) =>
  new InvitationError("not_found", `there is no pending invitation "${invitationId.slice(0, 64)}"`);

async function actOnInvitation(actor: Actor, companyId: string, invitationId: string, action: "resend" | "revoke") {
  const [row] = await pendingInvitations(actor, companyId, { id: invitationId }, PEOPLE_WRITE);
  if (!row) throw noInvitation(invitationId);
  await actOnCompanyPeople(actor, companyId, { action, email: row.email });
}

/** Sends the invitation again with a new link (the old one stops working); the invitation keeps its id. */
export async function resendInvitationById(
  actor: Actor,
  companyId: string,
  invitationId: string,
): Promise<InvitationJson> {
  await actOnInvitation(actor, companyId, invitationId, "resend");
  const [resent] = await pendingInvitations(actor, companyId, { id: invitationId }, PEOPLE_WRITE);
  if (!resent) throw noInvitation(invitationId);
  return invitationJson(resent);
}

/** Revokes the invitation: its link stops working and its mail, if still waiting, is dropped. */
export async function revokeInvitationById(actor: Actor, companyId: string, invitationId: string): Promise<void> {
  await actOnInvitation(actor, companyId, invitationId, "revoke");
}
