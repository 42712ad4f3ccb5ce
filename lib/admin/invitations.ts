/**
 * Inviting people: the operator into any company, a company's administrators into their own. An
 * invitation is a link with 256 random bits, of which only the SHA-256 is stored, valid for INVITATION_VALID_DAYS;
 * inviting the same address again replaces the link, revoking deletes it. The mail is written to the outbox in the
 * same transaction.
 */
import { PAGES } from "@/lib/http/paths";
import { OptiGateError } from "@/lib/errors/optigate-error";
import type { DataAccess } from "@/lib/service-context";
import type { Config } from "@/lib/config";
import { generateOpaqueToken, hashToken } from "@/lib/crypto/tokens";
import type { Stores } from "@/lib/store/stores";
import type { Locale } from "@/lib/i18n/locales";
import { renderInvitationMail } from "@/lib/mail/invitation-mail";
import { sealMail } from "@/lib/mail/outbox";
import { type InvitationConflict, type InvitationToStore, type PendingInvitation } from "@/lib/store/invitation-store";
import { checkRoleFits, type Role } from "@/lib/admin/person-fields";

const INVITATION_VALID_DAYS = 7;

export type InvitationProblem =
  "unknown_company" | "company_inactive" | "already_user" | "invited_elsewhere" | "not_found" | "throttled";

export class InvitationError extends OptiGateError<InvitationProblem> {
  constructor(
    readonly code: InvitationProblem,
    message: string,
  ) {
    super(message);
  }
}

export interface InvitationRequest {
  email: string;
  companyId: string;
  role: Role;
  language: Locale;
  /** the names the inviter knows (checked with parseName), offered on the invitation page */
  givenName?: string;
  familyName?: string;
}

/** Who invites: a company administrator or operator user (by id and name), or nobody for the command line. */
export interface Inviter {
  userId: string;
  name: string;
}

export interface IssuedInvitation {
  email: string;
  company: string;
  role: Role;
  language: Locale;
  invitation_url: string;
  expires_at: string;
}

/** A pending invitation as the management API shows it; `expired` ones wait to be sent again or revoked. */
export interface InvitationJson {
  id: string;
  email: string;
  company: string;
  role: string;
  language: string;
  given_name: string | null;
  family_name: string | null;
  status: "pending" | "expired";
  created_at: string;
  expires_at: string;
}

export const invitationJson = (invitation: PendingInvitation, now = new Date()): InvitationJson => ({
  id: invitation.id,
  email: invitation.email,
  company: invitation.companyId,
  role: invitation.role,
  language: invitation.language,
  given_name: invitation.givenName,
  family_name: invitation.familyName,
  status: invitation.expiresAt > now ? "pending" : "expired",
  created_at: invitation.createdAt.toISOString(),
  expires_at: invitation.expiresAt.toISOString(),
});

type MailingContext = DataAccess & { config: Pick<Config, "publicUrl" | "secretKey"> };

/** The link, which also opens the page in the invitation's language. */
const invitationUrl = (publicUrl: string, token: string, language: Locale) =>
  `${publicUrl}${PAGES.invitation}?${new URLSearchParams({ token, ui_locales: language })}`;

export function conflictError(conflict: InvitationConflict): InvitationError {
  return conflict.reason === "already_user"
    ? new InvitationError("already_user", `${conflict.email} is already a user`)
    : new InvitationError("invited_elsewhere", `${conflict.email} has a pending invitation from another company`);
}

/** The invitation's row, mail and audit event, ready to store, and its link (shown once). */
export async function prepareInvitation(
  context: MailingContext,
  request: InvitationRequest & { companyName: string },
  inviter: Inviter | undefined,
  now: Date,
): Promise<{ entry: InvitationToStore; issued: IssuedInvitation }> {
  const token = generateOpaqueToken();
  const url = invitationUrl(context.config.publicUrl, token, request.language);
  const expiresAt = new Date(now.getTime() + INVITATION_VALID_DAYS * 86_400_000);
  const content = await renderInvitationMail({
    language: request.language,
    companyName: request.companyName,
    inviterName: inviter?.name,
    url,
    validDays: INVITATION_VALID_DAYS,
  });
  const { email, companyId, role, language, givenName, familyName } = request;
  const entry: InvitationToStore = {
    invitation: {
      email,
      companyId,
      role,
      language,
      givenName,
      familyName,
      tokenHash: hashToken(token),
      invitedByUserId: inviter?.userId,
      expiresAt,
    },
    mail: sealMail(context.config.secretKey, { kind: "invitation", recipient: email, language, content }),
    event: { type: "user.invited", userId: inviter?.userId, details: { username: email, companyId, role } },
  };
  const issued = {
    email,
    company: companyId,
    role,
    language,
    invitation_url: url,
    expires_at: expiresAt.toISOString(),
  };
  return { entry, issued };
}

/** The company to invite into: it exists and is active. */
async function invitingCompany(stores: Stores, companyId: string): Promise<{ id: string; name: string; kind: string }> {
  const company = await stores.companies.find(companyId);
  if (!company) throw new InvitationError("unknown_company", `there is no company "${companyId}"`);
  if (!company.active) throw new InvitationError("company_inactive", `company "${companyId}" is deactivated`);
  return company;
}

async function* oneChunk<T>(chunk: T[]): AsyncIterable<T[]> {
  yield chunk;
}

/** Invites one person (or sends their invitation again with a new link); the link, to be shown once. */
export async function invitePerson(
  context: MailingContext,
  request: InvitationRequest,
  inviter?: Inviter,
  now = new Date(),
): Promise<IssuedInvitation> {
  const company = await invitingCompany(context.stores, request.companyId);
  checkRoleFits(request.role, company.kind);
  const { entry, issued } = await prepareInvitation(context, { ...request, companyName: company.name }, inviter, now);
  const outcome = await context.stores.invitations.save(oneChunk([entry]), now);
  if ("conflicts" in outcome) throw conflictError(outcome.conflicts[0]);
  return issued;
}

/** Revokes the pending invitation of an address (in one company, when given); its link stops working. */
export async function revokeInvitation(
  stores: Stores,
  email: string,
  companyId: string | undefined,
  by?: string,
): Promise<void> {
  const event = { type: "user.invitation_revoked" as const, userId: by, details: { username: email, companyId } };
  if (!(await stores.invitations.deletePending({ email, companyId }, event)))
    throw new InvitationError("not_found", `there is no pending invitation for ${email}`);
}
