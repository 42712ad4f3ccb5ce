/**
 * /manage/v1/issuers: the trusted issuers of federation (RFC 7523 assertions, RFC 8693 token exchange) as
 * `federation add|list|remove` and the operator's federation page keep them (lib/rights/operator-federation.ts), for
 * an operator's management client. An issuer is named by its issuer URL, percent-encoded as one path segment, and
 * described by the JSON of `federation add`; PUT replaces the description, PATCH merges into it (RFC 7396), both with
 * If-Match. Its subject links stay through a change and go with it when it is removed.
 */
import { queryParameters, readJsonObject } from "@/lib/api/request-input";
import {
  pageQuery,
  pageResponse,
  representationResponse,
  requireCurrent,
  type ManageCall,
  type ManageRoute,
} from "@/lib/api/manage/manage-call";
import { manageOperation, pathId, writeProblems } from "@/lib/api/manage/manage-openapi";
import { ApiProblem } from "@/lib/errors/api-problem";
import { describedIssuer, trustedIssuerJson } from "@/lib/admin/federation-registry";
import {
  listTrustedIssuers,
  saveTrustedIssuer,
  trustedIssuerFor,
  untrustIssuer,
  type TrustedIssuerSummary,
} from "@/lib/rights/operator-federation";

const READ = ["manage.issuers.read"];
const WRITE = ["manage.issuers.write"];
const MAX_PAGE = 200;

const issuerPath = (issuer: string) => `/manage/v1/issuers/${encodeURIComponent(issuer)}`;

async function existingIssuer(call: ManageCall): Promise<TrustedIssuerSummary> {
  const issuer = await trustedIssuerFor(call.actor, call.params.issuer);
  if (!issuer) throw new ApiProblem("not-found", `"${call.params.issuer.slice(0, 200)}" is not a trusted issuer.`);
  return issuer;
}

async function listIssuers(call: ManageCall): Promise<Response> {
  const { page, cursorList } = pageQuery(call, "issuers", [], { max: MAX_PAGE, default: 50 });
  const issuers = (await listTrustedIssuers(call.actor))
    .filter((issuer) => page.after === undefined || issuer.issuer > page.after)
    .sort((a, b) => (a.issuer < b.issuer ? -1 : a.issuer > b.issuer ? 1 : 0))
    .slice(0, page.limit + 1);
  return pageResponse(call, cursorList, page, issuers, (issuer) => issuer.issuer, trustedIssuerJson);
}

async function getIssuer(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  return representationResponse(trustedIssuerJson(await existingIssuer(call)));
}

async function addIssuer(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  const issuer = await saveTrustedIssuer(call.actor, await readJsonObject(call.request), "add");
  const added = (await trustedIssuerFor(call.actor, issuer))!;
  return representationResponse(trustedIssuerJson(added), 201, { Location: issuerPath(issuer) });
}

/** RFC 7396: members of the patch replace the description's, null removes one. */
function mergePatch(description: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...description };
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete merged[name];
    else merged[name] = value;
  }
  return merged;
}

const changing = (merge: boolean) => async (call: ManageCall) => {
  queryParameters(call.url, []);
  const current = await existingIssuer(call);
  const body = await readJsonObject(call.request);
  requireCurrent(call, trustedIssuerJson(current), "trusted issuer");
  if (body.issuer !== undefined && body.issuer !== current.issuer)
    throw new ApiProblem(
      "bad-request",
      "The body's issuer must be the issuer's own (or absent): an issuer URL does not change.",
    );
  const description = merge ? mergePatch(describedIssuer(current), body) : body;
  await saveTrustedIssuer(call.actor, { ...description, issuer: current.issuer }, "replace");
  return representationResponse(trustedIssuerJson(await existingIssuer(call)));
};

async function removeIssuer(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  await untrustIssuer(call.actor, call.params.issuer);
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
}

const issuerParameter = {
  ...pathId("issuer"),
  description: "The issuer URL, percent-encoded (https%3A%2F%2Fidp.example.com)",
};

const changeOperation = (operationId: string, summary: string, body: string) =>
  manageOperation({
    operationId,
    summary,
    parameters: [issuerParameter],
    ifMatch: true,
    body,
    ok: "TrustedIssuer",
    notFound: true,
    problems: writeProblems(),
  });

export const ISSUER_ROUTES: readonly ManageRoute[] = [
  {
    method: "GET",
    path: "/manage/v1/issuers",
    scopes: READ,
    handle: listIssuers,
    operation: manageOperation({
      operationId: "listTrustedIssuers",
      summary: "The trusted issuers, by issuer URL",
      page: { item: "TrustedIssuer", max: MAX_PAGE, default: 50 },
    }),
  },
  {
    method: "POST",
    path: "/manage/v1/issuers",
    scopes: WRITE,
    handle: addIssuer,
    operation: manageOperation({
      operationId: "addTrustedIssuer",
      summary: "Trusts an issuer (the JSON of `federation add`); one trusted already is a conflict",
      body: "TrustedIssuerDescription",
      created: "TrustedIssuer",
      problems: writeProblems("conflict"),
    }),
  },
  {
    method: "GET",
    path: "/manage/v1/issuers/{issuer}",
    scopes: READ,
    handle: getIssuer,
    operation: manageOperation({
      operationId: "getTrustedIssuer",
      parameters: [issuerParameter],
      ok: "TrustedIssuer",
      notFound: true,
    }),
  },
  {
    method: "PUT",
    path: "/manage/v1/issuers/{issuer}",
    scopes: WRITE,
    handle: changing(false),
    operation: changeOperation(
      "replaceTrustedIssuer",
      "Replaces the description; links stay",
      "TrustedIssuerDescription",
    ),
  },
  {
    method: "PATCH",
    path: "/manage/v1/issuers/{issuer}",
    scopes: WRITE,
    handle: changing(true),
    operation: changeOperation(
      "patchTrustedIssuer",
      "Merges the members given into the description (RFC 7396: null removes one)",
      "TrustedIssuerPatch",
    ),
  },
  {
    method: "DELETE",
    path: "/manage/v1/issuers/{issuer}",
    scopes: WRITE,
    handle: removeIssuer,
    operation: manageOperation({
      operationId: "removeTrustedIssuer",
      summary: "Stops trusting the issuer: its tokens are refused from now on, its links go",
      parameters: [issuerParameter],
      noContent: true,
      notFound: true,
    }),
  },
];

const strings = { type: "array", items: { type: "string" }, maxItems: 100 };
const DESCRIPTION = {
  issuer: { type: "string", format: "uri" },
  jwks_uri: { type: "string", format: "uri" },
  jwks: { type: "object", description: "A JWK Set, instead of jwks_uri" },
  clients: { ...strings, description: "The confidential clients that may use the issuer's tokens" },
  subject: { enum: ["email", "link"] },
  companies: { ...strings, description: "Whose users the issuer speaks for (company ids)" },
  email_domains: { ...strings, description: "Whose users the issuer speaks for (email domains)" },
};

export const ISSUER_SCHEMAS = {
  TrustedIssuerDescription: {
    type: "object",
    description: "A trusted issuer as `federation add` reads it: companies and/or email_domains are needed.",
    required: ["issuer", "clients", "subject"],
    additionalProperties: false,
    properties: DESCRIPTION,
  },
  TrustedIssuerPatch: {
    type: "object",
    description: "Members to change (RFC 7396); null removes one, such as jwks when jwks_uri is given.",
    additionalProperties: false,
    properties: Object.fromEntries(
      Object.entries(DESCRIPTION).map(([name, schema]) => [name, { oneOf: [schema, { type: "null" }] }]),
    ),
  },
  TrustedIssuer: {
    type: "object",
    required: [
      "issuer",
      "clients",
      "subject",
      "companies",
      "email_domains",
      "linked_subjects",
      "created_at",
      "updated_at",
    ],
    additionalProperties: false,
    properties: {
      ...DESCRIPTION,
      linked_subjects: { type: "integer", minimum: 0 },
      created_at: { type: "string", format: "date-time" },
      updated_at: { type: "string", format: "date-time" },
    },
  },
};
