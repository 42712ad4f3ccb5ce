/**
 * /manage/v1/users and /manage/v1/companies/{companyId}/users: finding people by email or by name, reading one, and
 * the company page's actions on them by their id (deactivate, reactivate, unlock, change the role), erasing them as
 * `users remove` does and resetting their second factors as `users reset-second-factor` does, through the pages' rules
 * (lib/rights/people-directory.ts). The operator's client reaches every company's people, but changes none of the
 * operator company's (403); a company's own client only its company's, and another company's user is not found, never
 * revealed. Erasing and second-factor resets are the operator's client's alone.
 */
import { onlyMembers, queryParameters, readJsonObject, stringMember } from "@/lib/api/request-input";
import {
  pageQuery,
  pageResponse,
  representationResponse,
  requireCurrent,
  type ManageCall,
  type ManageRoute,
} from "@/lib/api/manage/manage-call";
import { manageOperation, pathId, writeProblems } from "@/lib/api/manage/manage-openapi";
import { MAX_USERNAME_LENGTH } from "@/lib/config/policy";
import { ApiProblem } from "@/lib/errors/api-problem";
import { wakeMailDelivery } from "@/lib/mail/mail-delivery";
import { PEOPLE_READ, PEOPLE_WRITE } from "@/lib/rights/company-people";
import {
  actOnPerson,
  companyPeopleFor,
  erasePersonById,
  personFor,
  resetPersonSecondFactors,
  searchPeople,
  type ManagedUser,
  type PersonAction,
  type PeopleSearch,
} from "@/lib/rights/people-directory";

const READ = { scopes: [PEOPLE_READ.platform], companyScopes: [PEOPLE_READ.company] };
const WRITE = { scopes: [PEOPLE_WRITE.platform], companyScopes: [PEOPLE_WRITE.company] };
const MAX_PAGE = 200;
const MAX_QUERY_LENGTH = 200;
const MAX_WORDS = 8;

/** The search of `?q=&email=&companyId=`, bounded. */
function searchOf(filters: Map<string, string>): PeopleSearch {
  const [q, email, companyId] = [filters.get("q"), filters.get("email"), filters.get("companyId")];
  if (q !== undefined && q.length > MAX_QUERY_LENGTH)
    throw new ApiProblem("bad-request", `q must be at most ${MAX_QUERY_LENGTH} characters.`);
  if (email !== undefined && email.length > MAX_USERNAME_LENGTH)
    throw new ApiProblem("bad-request", `email must be at most ${MAX_USERNAME_LENGTH} characters.`);
  if (companyId !== undefined && companyId.length > 64)
    throw new ApiProblem("bad-request", "companyId must be at most 64 characters.");
  const words = q?.split(/\s+/).filter((word) => word.length > 0) ?? [];
  if (words.length > MAX_WORDS) throw new ApiProblem("bad-request", `q may hold at most ${MAX_WORDS} words.`);
  return { email, words, companyId };
}

async function listUsers(call: ManageCall): Promise<Response> {
  const filters = ["q", "email", "companyId"];
  const { filters: chosen, page, cursorList } = pageQuery(call, "users", filters, { max: MAX_PAGE, default: 50 });
  const found = await searchPeople(call.actor, searchOf(chosen), { after: page.after, limit: page.limit + 1 });
  return pageResponse(
    call,
    cursorList,
    page,
    found,
    (user) => user.email,
    (user) => user,
  );
}

async function existingUser(call: ManageCall, scopes = PEOPLE_READ): Promise<ManagedUser> {
  const user = await personFor(call.actor, call.params.userId, scopes);
  if (!user) throw new ApiProblem("not-found", `There is no user with the id "${call.params.userId.slice(0, 64)}".`);
  return user;
}

async function getUser(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  return representationResponse(await existingUser(call));
}

async function changeUser(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  const body = await readJsonObject(call.request);
  onlyMembers(body, ["role"]);
  const role = stringMember(body, "role").slice(0, 20);
  requireCurrent(call, await existingUser(call, PEOPLE_WRITE), "user");
  return representationResponse(await actOnPerson(call.actor, call.params.userId, { action: "role", role }));
}

const acting = (action: Exclude<PersonAction["action"], "role">) => async (call: ManageCall) => {
  queryParameters(call.url, []);
  return representationResponse(await actOnPerson(call.actor, call.params.userId, { action }));
};

async function eraseUser(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  await erasePersonById(call.actor, call.params.userId);
  return new Response(null, { status: 204 });
}

async function resetSecondFactor(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  const { removed } = await resetPersonSecondFactors(call.actor, call.params.userId);
  if (removed > 0) wakeMailDelivery();
  return representationResponse({ user_id: call.params.userId, removed });
}

async function listCompanyPeople(call: ManageCall): Promise<Response> {
  const { page, cursorList } = pageQuery(call, `companies/${call.params.companyId}/users`, [], {
    max: MAX_PAGE,
    default: 50,
  });
  const people = (await companyPeopleFor(call.actor, call.params.companyId))
    .filter((person) => page.after === undefined || person.email > page.after)
    .slice(0, page.limit + 1);
  return pageResponse(
    call,
    cursorList,
    page,
    people,
    (person) => person.email,
    (person) => person,
  );
}

const userId = pathId("userId");

/** A POST on one user that answers the user as they are now. */
const userAction = (
  path: string,
  operationId: string,
  summary: string,
  handle: (call: ManageCall) => Promise<Response>,
): ManageRoute => ({
  method: "POST",
  path: `/manage/v1/users/{userId}/${path}`,
  ...WRITE,
  handle,
  operation: manageOperation({
    operationId,
    summary,
    parameters: [userId],
    ok: "User",
    notFound: true,
    problems: ["conflict", "unprocessable"],
  }),
});

export const USER_ROUTES: readonly ManageRoute[] = [
  {
    method: "GET",
    path: "/manage/v1/users",
    ...READ,
    handle: listUsers,
    operation: manageOperation({
      operationId: "listUsers",
      summary:
        "The users, by email: email finds one address (in any case), q those whose email or names hold each of its " +
        "words; a company's own client sees its company's users only",
      parameters: [
        { name: "q", in: "query", schema: { type: "string", maxLength: MAX_QUERY_LENGTH } },
        { name: "email", in: "query", schema: { type: "string", maxLength: MAX_USERNAME_LENGTH } },
        { name: "companyId", in: "query", schema: { type: "string", maxLength: 64 } },
      ],
      page: { item: "User", max: MAX_PAGE, default: 50 },
    }),
  },
  {
    method: "GET",
    path: "/manage/v1/users/{userId}",
    ...READ,
    handle: getUser,
    operation: manageOperation({ operationId: "getUser", parameters: [userId], ok: "User", notFound: true }),
  },
  {
    method: "PATCH",
    path: "/manage/v1/users/{userId}",
    ...WRITE,
    handle: changeUser,
    operation: manageOperation({
      operationId: "changeUser",
      summary: "Changes the user's role; the company's last administrator keeps theirs (but for the operator)",
      parameters: [userId],
      ifMatch: true,
      body: "UserChange",
      ok: "User",
      notFound: true,
      problems: writeProblems("conflict"),
    }),
  },
  {
    method: "DELETE",
    path: "/manage/v1/users/{userId}",
    // The operator's alone, as `users remove` is: a company's administrators have no such action on their page.
    scopes: WRITE.scopes,
    handle: eraseUser,
    operation: manageOperation({
      operationId: "eraseUser",
      summary:
        "Erases the user's personal data for good (`users remove`); the audit trail keeps a pseudonym. The operator's " +
        "client alone, and never on the operator company's people",
      parameters: [userId],
      noContent: true,
      notFound: true,
      problems: ["unprocessable"],
    }),
  },
  userAction(
    "deactivate",
    "deactivateUser",
    "Signs the user out everywhere and refuses them; the invitations they sent and that wait are withdrawn",
    acting("deactivate"),
  ),
  userAction(
    "reactivate",
    "reactivateUser",
    "Undoes deactivate; a company's client cannot undo the operator's deactivation",
    acting("activate"),
  ),
  userAction(
    "unlock",
    "unlockUser",
    "Lifts the sign-in lock-out after failed attempts; a company's client cannot when the user has a second factor",
    acting("unlock"),
  ),
  {
    method: "POST",
    path: "/manage/v1/users/{userId}/second-factor-reset",
    // The operator's alone: a company's client would get around the lock-out of an account with a second factor.
    scopes: WRITE.scopes,
    handle: resetSecondFactor,
    operation: manageOperation({
      operationId: "resetUserSecondFactor",
      summary: "Removes the user's passkeys, authenticator app and recovery codes (a lost phone) and mails a notice",
      parameters: [userId],
      ok: "SecondFactorReset",
      notFound: true,
    }),
  },
  {
    method: "GET",
    path: "/manage/v1/companies/{companyId}/users",
    ...READ,
    handle: listCompanyPeople,
    operation: manageOperation({
      operationId: "listCompanyPeople",
      summary: "The company's people as its page shows them: its users and the people invited, by email",
      parameters: [pathId("companyId")],
      page: { item: "CompanyPerson", max: MAX_PAGE, default: 50 },
      notFound: true,
    }),
  },
];
