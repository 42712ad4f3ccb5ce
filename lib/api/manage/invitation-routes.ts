/**
 * /manage/v1/companies/{companyId}/invitations: a company's pending invitations, and the company page's invite, send
 * again and revoke (lib/rights/company-invitations.ts), with its rules and answers. The operator's client reaches any
 * company; a company's own client its own, and another company's id is forbidden.
 */
import { onlyMembers, queryParameters, readJsonObject } from "@/lib/api/request-input";
import {
  pageQuery,
  pageResponse,
  representationResponse,
  type ManageCall,
  type ManageRoute,
} from "@/lib/api/manage/manage-call";
import { manageOperation, pathId, writeProblems } from "@/lib/api/manage/manage-openapi";
import { parseEmail, parseName } from "@/lib/admin/person-fields";
import { json, ref } from "@/lib/api/openapi-schemas";
import { MAX_USERNAME_LENGTH } from "@/lib/config/policy";
import { ApiProblem } from "@/lib/errors/api-problem";
import { wakeMailDelivery } from "@/lib/mail/mail-delivery";
import { PEOPLE_READ, PEOPLE_WRITE } from "@/lib/rights/company-people";
import {
  companyInvitationsFor,
  invitationFor,
  inviteIntoCompany,
  resendInvitationById,
  revokeInvitationById,
  type InvitationAsked,
} from "@/lib/rights/company-invitations";

const READ = { scopes: [PEOPLE_READ.platform], companyScopes: [PEOPLE_READ.company] };
const WRITE = { scopes: [PEOPLE_WRITE.platform], companyScopes: [PEOPLE_WRITE.company] };
const MAX_PAGE = 200;
const MEMBERS = ["email", "role", "language", "given_name", "family_name"] as const;

/** The body's members, each a string when present (the rules check their values: 422). */
function askedOf(body: Record<string, unknown>): InvitationAsked {
  onlyMembers(body, MEMBERS);
  const text = (name: (typeof MEMBERS)[number]) => {
    const value = body[name];
    if (value === undefined) return undefined;
    if (typeof value !== "string") throw new ApiProblem("bad-request", `"${name}" must be a string.`);
    // Longer values are refused by the rules anyway; the cut keeps their messages short.
    return value.slice(0, MAX_USERNAME_LENGTH + 1);
  };
  const email = text("email");
  if (email === undefined) throw new ApiProblem("bad-request", 'The body needs "email" as a string.');
  const [role, language, givenName, familyName] = [
    text("role"),
    text("language"),
    text("given_name"),
    text("family_name"),
  ];
  return { email, role, language, givenName, familyName };
}

async function listInvitations(call: ManageCall): Promise<Response> {
  const { filters, page, cursorList } = pageQuery(call, `companies/${call.params.companyId}/invitations`, ["email"], {
    max: MAX_PAGE,
    default: 50,
  });
  const email = filters.get("email");
  if (email !== undefined && email.length > MAX_USERNAME_LENGTH)
    throw new ApiProblem("bad-request", `email must be at most ${MAX_USERNAME_LENGTH} characters.`);
  const invitations = (await companyInvitationsFor(call.actor, call.params.companyId, email))
    .filter((invitation) => page.after === undefined || invitation.email > page.after)
    .slice(0, page.limit + 1);
  return pageResponse(
    call,
    cursorList,
    page,
    invitations,
    (invitation) => invitation.email,
    (invitation) => invitation,
  );
}

async function invite(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  const asked = askedOf(await readJsonObject(call.request));
  const resent = await inviteIntoCompany(call.actor, call.params.companyId, asked);
  wakeMailDelivery();
  const sent = {
    email: parseEmail(asked.email),
    company: call.params.companyId,
    role: asked.role ?? "user",
    language: asked.language ?? "en",
    given_name: asked.givenName === undefined ? null : parseName(asked.givenName, "given_name"),
    family_name: asked.familyName === undefined ? null : parseName(asked.familyName, "family_name"),
    resent,
  };
  return new Response(JSON.stringify(sent), {
    status: 202,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });
}

async function getInvitation(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  const { companyId, invitationId } = call.params;
  const invitation = await invitationFor(call.actor, companyId, invitationId);
  if (!invitation) throw new ApiProblem("not-found", `There is no pending invitation "${invitationId.slice(0, 64)}".`);
  return representationResponse(invitation);
}

async function resend(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  const invitation = await resendInvitationById(call.actor, call.params.companyId, call.params.invitationId);
  wakeMailDelivery();
  return representationResponse(invitation);
}

async function revoke(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  await revokeInvitationById(call.actor, call.params.companyId, call.params.invitationId);
  return new Response(null, { status: 204 });
}

/** The invitation's operation answers 202 with what was sent: a company's client must not learn more. */
function sentOperation(operation: Record<string, unknown>): Record<string, unknown> {
  const sent = { description: "The invitation is sent", content: json(ref("InvitationSent")) };
  return { ...operation, responses: { "202": sent, ...(operation.responses as Record<string, unknown>) } };
}

const companyId = pathId("companyId");
const invitationId = pathId("invitationId");

export const INVITATION_ROUTES: readonly ManageRoute[] = [
  {
    method: "GET",
    path: "/manage/v1/companies/{companyId}/invitations",
    ...READ,
    handle: listInvitations,
    operation: manageOperation({
      operationId: "listInvitations",
      summary: "The company's pending invitations (expired ones too), by email; email finds one address's",
      parameters: [
        companyId,
        { name: "email", in: "query", schema: { type: "string", maxLength: MAX_USERNAME_LENGTH } },
      ],
      page: { item: "Invitation", max: MAX_PAGE, default: 50 },
      notFound: true,
    }),
  },
  {
    method: "POST",
    path: "/manage/v1/companies/{companyId}/invitations",
    ...WRITE,
    handle: invite,
    operation: sentOperation(
      manageOperation({
        operationId: "invite",
        summary: "Invites a person: the mail with the link goes out (an address invited already gets a new link)",
        parameters: [companyId],
        body: "InvitationRequest",
        notFound: true,
        problems: writeProblems("conflict"),
      }),
    ),
  },
  {
    method: "GET",
    path: "/manage/v1/companies/{companyId}/invitations/{invitationId}",
    ...READ,
    handle: getInvitation,
    operation: manageOperation({
      operationId: "getInvitation",
      parameters: [companyId, invitationId],
      ok: "Invitation",
      notFound: true,
    }),
  },
  {
    method: "POST",
    path: "/manage/v1/companies/{companyId}/invitations/{invitationId}/resend",
    ...WRITE,
    handle: resend,
    operation: manageOperation({
      operationId: "resendInvitation",
      summary: "Sends the invitation again with a new link; the earlier link stops working",
      parameters: [companyId, invitationId],
      ok: "Invitation",
      notFound: true,
      problems: ["unprocessable"],
    }),
  },
  {
    method: "DELETE",
    path: "/manage/v1/companies/{companyId}/invitations/{invitationId}",
    ...WRITE,
    handle: revoke,
    operation: manageOperation({
      operationId: "revokeInvitation",
      summary: "Revokes the invitation: its link stops working",
      parameters: [companyId, invitationId],
      noContent: true,
      notFound: true,
    }),
  },
];
