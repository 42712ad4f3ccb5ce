/**
 * /manage/v1/companies/{companyId}/sso and …/domains: a company's own sign-in (its OpenID Connect provider, described
 * as `companies sso set` reads it, the secret write-only) and the email domains whose people sign in there, through
 * the rights functions of the company page (lib/rights/company-sso-*.ts). An operator's client (`manage.sso.*`) acts
 * for any company with an operator's rules; a company's own client (`manage.company.sso.*`) for its company alone,
 * with its administrator's: another company's id is refused with 403.
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
import { SSO_SCHEMAS } from "@/lib/api/manage/sso-schemas";
import { ApiProblem } from "@/lib/errors/api-problem";
import { DomainNameError, normalizeDomain } from "@/lib/http/domain-name";
import {
  claimCompanyDomain,
  companyDomainsFor,
  giveUpCompanyDomain,
  verifyOwnCompanyDomain,
} from "@/lib/rights/company-sso-domains";
import {
  companySsoIfSet,
  removeCompanySsoSettings,
  saveCompanySsoSettings,
  switchCompanySsoSetting,
} from "@/lib/rights/company-sso-settings";

export { SSO_SCHEMAS };

const READ = ["manage.sso.read"];
const WRITE = ["manage.sso.write"];
const COMPANY_READ = ["manage.company.sso.read"];
const COMPANY_WRITE = ["manage.company.sso.write"];
/** A company claims at most a handful of domains (MAX_DOMAINS_PER_COMPANY): one page holds them. */
const MAX_PAGE = 50;
/** Longer than any domain (253 characters), short enough to show back. */
const MAX_DOMAIN_INPUT = 300;

const noProvider = () => new ApiProblem("not-found", "The company has no identity provider set up.");

async function getSso(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  const sso = await companySsoIfSet(call.actor, call.params.companyId);
  if (!sso) throw noProvider();
  return representationResponse(sso);
}

/** Sets the provider up (201) or replaces its settings (200, with If-Match naming them as they are). */
async function putSso(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  const { companyId } = call.params;
  const current = await companySsoIfSet(call.actor, companyId, "write");
  const description = await readJsonObject(call.request);
  if (current) requireCurrent(call, current, "company's sign-in settings");
  else if (call.request.headers.get("if-match") !== null)
    throw new ApiProblem(
      "precondition-failed",
      "The company has no sign-in settings yet; send the PUT without If-Match.",
    );
  const saved = await saveCompanySsoSettings(call.actor, description, companyId);
  return current ? representationResponse(saved) : representationResponse(saved, 201, { Location: call.url.pathname });
}

async function deleteSso(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  await removeCompanySsoSettings(call.actor, call.params.companyId);
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
}

const switching = (enabled: boolean) => async (call: ManageCall) => {
  queryParameters(call.url, []);
  await switchCompanySsoSetting(call.actor, "enabled", enabled, call.params.companyId);
  const sso = await companySsoIfSet(call.actor, call.params.companyId, "write");
  if (!sso) throw noProvider();
  return representationResponse(sso);
};

async function listDomains(call: ManageCall): Promise<Response> {
  const { companyId } = call.params;
  const { page, cursorList } = pageQuery(call, `companies/${companyId}/domains`, [], { max: MAX_PAGE, default: 50 });
  const domains = (await companyDomainsFor(call.actor, companyId))
    .sort((a, b) => (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0))
    .filter((domain) => page.after === undefined || domain.domain > page.after)
    .slice(0, page.limit + 1);
  return pageResponse(
    call,
    cursorList,
    page,
    domains,
    (domain) => domain.domain,
    (domain) => domain,
  );
}

/** The domain in its stored form; undefined for a name that is no domain (which no company claims). */
function domainOrNothing(raw: string): string | undefined {
  try {
    return normalizeDomain(raw);
  } catch (error) {
    if (error instanceof DomainNameError) return undefined;
    throw error;
  }
}

async function getDomain(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  const domains = await companyDomainsFor(call.actor, call.params.companyId);
  const wanted = domainOrNothing(call.params.domain);
  const found = domains.find(({ domain }) => domain === wanted);
  if (!found) throw new ApiProblem("not-found", `The company claims no domain "${call.params.domain.slice(0, 80)}".`);
  return representationResponse(found);
}

/** The claim's body: `{"domain": …, "verified"?: true|false}`. */
function claimOf(body: Record<string, unknown>): { domain: string; verified: boolean } {
  const unknown = Object.keys(body).find((key) => key !== "domain" && key !== "verified");
  if (unknown !== undefined) throw new ApiProblem("bad-request", `Unknown field "${unknown.slice(0, 64)}".`);
  if (typeof body.domain !== "string" || body.domain.length > MAX_DOMAIN_INPUT)
    throw new ApiProblem("bad-request", `domain must be a domain name of at most ${MAX_DOMAIN_INPUT} characters.`);
  if (body.verified !== undefined && typeof body.verified !== "boolean")
    throw new ApiProblem("bad-request", "verified must be true or false.");
  return { domain: body.domain, verified: body.verified === true };
}

async function claimDomain(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  const { companyId } = call.params;
  // The right first: another company's client learns nothing from its body's checks.
  await companyDomainsFor(call.actor, companyId, "write");
  const { domain, verified } = claimOf(await readJsonObject(call.request));
  const claimed = await claimCompanyDomain(call.actor, domain, { companyId, verified });
  return representationResponse(claimed, 201, {
    Location: `${call.url.pathname}/${encodeURIComponent(claimed.domain)}`,
  });
}

async function verifyDomain(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  return representationResponse(await verifyOwnCompanyDomain(call.actor, call.params.domain, call.params.companyId));
}

async function removeDomain(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  await giveUpCompanyDomain(call.actor, call.params.domain, call.params.companyId);
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
}

const companyId = pathId("companyId");
const domain = pathId("domain");
const SSO = "/manage/v1/companies/{companyId}/sso";
const DOMAINS = "/manage/v1/companies/{companyId}/domains";
const reading = { scopes: READ, companyScopes: COMPANY_READ };
const writing = { scopes: WRITE, companyScopes: COMPANY_WRITE };

export const SSO_ROUTES: readonly ManageRoute[] = [
  {
    method: "GET",
    path: SSO,
    ...reading,
    handle: getSso,
    operation: manageOperation({
      operationId: "getCompanySso",
      summary: "The company's identity provider (never its client secret); 404 while none is set up",
      parameters: [companyId],
      ok: "CompanySso",
      notFound: true,
    }),
  },
  {
    method: "PUT",
    path: SSO,
    ...writing,
    handle: putSso,
    operation: manageOperation({
      operationId: "setCompanySso",
      summary:
        "Sets the provider up (201) or replaces its settings (200, If-Match required); an omitted client_secret keeps " +
        "the stored one while issuer, client_id and token_endpoint_auth_method stay; omitted switches stay",
      parameters: [companyId, { name: "If-Match", in: "header", required: false, schema: { type: "string" } }],
      body: "CompanySsoDescription",
      ok: "CompanySso",
      created: "CompanySso",
      notFound: true,
      problems: writeProblems("conflict", "precondition-failed", "precondition-required"),
    }),
  },
  {
    method: "DELETE",
    path: SSO,
    ...writing,
    handle: deleteSso,
    operation: manageOperation({
      operationId: "removeCompanySso",
      summary: "Removes the provider: the company's people sign in with passwords again; domains stay",
      parameters: [companyId],
      noContent: true,
      notFound: true,
    }),
  },
  ...(["enable", "disable"] as const).map((which): ManageRoute => ({
    method: "POST",
    path: `${SSO}/${which}`,
    ...writing,
    handle: switching(which === "enable"),
    operation: manageOperation({
      operationId: `${which}CompanySso`,
      summary:
        which === "enable"
          ? "Sign-in of the company's verified domains goes to its provider"
          : "Everyone signs in with their OptiGate password again",
      parameters: [companyId],
      ok: "CompanySso",
      notFound: true,
    }),
  })),
  {
    method: "GET",
    path: DOMAINS,
    ...reading,
    handle: listDomains,
    operation: manageOperation({
      operationId: "listCompanyDomains",
      summary: "The email domains the company claims, by name; an unverified one with the DNS record that proves it",
      parameters: [companyId],
      page: { item: "CompanyDomain", max: MAX_PAGE, default: 50 },
      notFound: true,
    }),
  },
  {
    method: "POST",
    path: DOMAINS,
    ...writing,
    handle: claimDomain,
    operation: manageOperation({
      operationId: "claimCompanyDomain",
      summary: "Claims a domain; verified: true (an operator's client only) vouches for it without the DNS record",
      parameters: [companyId],
      body: "CompanyDomainClaim",
      created: "CompanyDomain",
      notFound: true,
      problems: writeProblems(),
    }),
  },
  {
    method: "GET",
    path: `${DOMAINS}/{domain}`,
    ...reading,
    handle: getDomain,
    operation: manageOperation({
      operationId: "getCompanyDomain",
      parameters: [companyId, domain],
      ok: "CompanyDomain",
      notFound: true,
    }),
  },
  {
    method: "DELETE",
    path: `${DOMAINS}/{domain}`,
    ...writing,
    handle: removeDomain,
    operation: manageOperation({
      operationId: "removeCompanyDomain",
      summary: "Gives the domain up: its people no longer sign in at the company's provider",
      parameters: [companyId, domain],
      noContent: true,
      notFound: true,
      problems: ["unprocessable"],
    }),
  },
  {
    method: "POST",
    path: `${DOMAINS}/{domain}/verify`,
    ...writing,
    handle: verifyDomain,
    operation: manageOperation({
      operationId: "verifyCompanyDomain",
      summary: "Looks the domain's DNS TXT record up and marks the domain verified when it holds the token",
      parameters: [companyId, domain],
      ok: "CompanyDomain",
      notFound: true,
      problems: ["unprocessable"],
    }),
  },
];
