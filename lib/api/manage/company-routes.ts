/**
 * /manage/v1/companies: the companies of the platform, as the operator's companies page and `companies add|update|
 * deactivate|activate` keep them (lib/rights/operator-companies.ts), for an operator's management client. A company
 * is described by the JSON of `companies add` (docs/operator-cli.md); a change replaces the description and needs
 * If-Match.
 */
import { readJsonObject, queryParameters } from "@/lib/api/request-input";
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
import {
  companyFor,
  listCompaniesFor,
  saveCompany,
  setCompanyActive,
  type CompanyJson,
} from "@/lib/rights/operator-companies";

const READ = ["manage.companies.read"];
const WRITE = ["manage.companies.write"];
const MAX_PAGE = 200;

async function existingCompany(call: ManageCall): Promise<CompanyJson> {
  const company = await companyFor(call.actor, call.params.companyId);
  if (!company) throw new ApiProblem("not-found", `There is no company "${call.params.companyId.slice(0, 64)}".`);
  return company;
}

async function listCompanies(call: ManageCall): Promise<Response> {
  const { filters, page, cursorList } = pageQuery(call, "companies", ["q"], { max: MAX_PAGE, default: 50 });
  const companies = (await listCompaniesFor(call.actor, filters.get("q")))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .filter((company) => page.after === undefined || company.id > page.after)
    .slice(0, page.limit + 1);
  return pageResponse(
    call,
    cursorList,
    page,
    companies,
    (company) => company.id,
    (company) => company,
  );
}

async function getCompany(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  return representationResponse(await existingCompany(call));
}

async function addCompany(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  const company = await saveCompany(call.actor, undefined, await readJsonObject(call.request));
  return representationResponse(company, 201, { Location: `${call.url.pathname}/${encodeURIComponent(company.id)}` });
}

async function replaceCompany(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  const current = await existingCompany(call);
  const description = await readJsonObject(call.request);
  requireCurrent(call, current, "company");
  if (description.id !== undefined && description.id !== current.id)
    throw new ApiProblem("bad-request", "The body's id must be the company's own (or absent).");
  return representationResponse(await saveCompany(call.actor, current.id, { ...description, id: current.id }));
}

const settingActive = (active: boolean) => async (call: ManageCall) => {
  queryParameters(call.url, []);
  const current = await existingCompany(call);
  await setCompanyActive(call.actor, current.id, active);
  return representationResponse(await existingCompany(call));
};

const companyId = pathId("companyId");

export const COMPANY_ROUTES: readonly ManageRoute[] = [
  {
    method: "GET",
    path: "/manage/v1/companies",
    scopes: READ,
    handle: listCompanies,
    operation: manageOperation({
      operationId: "listCompanies",
      summary: "The companies, by id; q finds a text in the name, id or supplier id",
      parameters: [{ name: "q", in: "query", schema: { type: "string", maxLength: 200 } }],
      page: { item: "Company", max: MAX_PAGE, default: 50 },
    }),
  },
  {
    method: "POST",
    path: "/manage/v1/companies",
    scopes: WRITE,
    handle: addCompany,
    operation: manageOperation({
      operationId: "addCompany",
      summary: "Adds a company (the JSON of `companies add`; without an id, one is made)",
      body: "CompanyDescription",
      created: "Company",
      problems: writeProblems("conflict"),
    }),
  },
  {
    method: "GET",
    path: "/manage/v1/companies/{companyId}",
    scopes: READ,
    handle: getCompany,
    operation: manageOperation({ operationId: "getCompany", parameters: [companyId], ok: "Company", notFound: true }),
  },
  {
    method: "PUT",
    path: "/manage/v1/companies/{companyId}",
    scopes: WRITE,
    handle: replaceCompany,
    operation: manageOperation({
      operationId: "replaceCompany",
      summary: "Replaces the company's description; its kind does not change",
      parameters: [companyId],
      ifMatch: true,
      body: "CompanyDescription",
      ok: "Company",
      notFound: true,
      problems: writeProblems("conflict"),
    }),
  },
  {
    method: "POST",
    path: "/manage/v1/companies/{companyId}/deactivate",
    scopes: WRITE,
    handle: settingActive(false),
    operation: manageOperation({
      operationId: "deactivateCompany",
      summary: "Its people are signed out everywhere and cannot sign in; a supplier's catalogs are withdrawn",
      parameters: [companyId],
      ok: "Company",
      notFound: true,
      problems: ["conflict"],
    }),
  },
  {
    method: "POST",
    path: "/manage/v1/companies/{companyId}/activate",
    scopes: WRITE,
    handle: settingActive(true),
    operation: manageOperation({
      operationId: "activateCompany",
      parameters: [companyId],
      ok: "Company",
      notFound: true,
      problems: ["conflict"],
    }),
  },
];

const WEB_SERVICE = {
  type: "object",
  required: ["type", "name", "url", "priority"],
  properties: {
    type: { type: "string" },
    name: { type: "string" },
    url: { type: "string", format: "uri" },
    priority: { type: "integer", minimum: 0, maximum: 99 },
  },
};

const DESCRIPTION_PROPERTIES = {
  id: { type: "string", pattern: "^[A-Za-z0-9._-]{1,64}$" },
  kind: { enum: ["eye_care_professional", "supplier", "operator", "software_vendor"] },
  name: { type: "string", maxLength: 200 },
  country: { type: ["string", "null"], pattern: "^[A-Z]{2}$" },
  supplier_id: { type: "string" },
  name1: { type: ["string", "null"] },
  name2: { type: ["string", "null"] },
  portal_url: { type: ["string", "null"], format: "uri" },
  web_services: { type: "array", items: WEB_SERVICE, maxItems: 20 },
};

export const COMPANY_SCHEMAS = {
  CompanyDescription: {
    type: "object",
    description: "A company as `companies add` takes it; supplier_id and the fields after it are for suppliers.",
    required: ["kind", "name"],
    additionalProperties: false,
    properties: DESCRIPTION_PROPERTIES,
  },
  Company: {
    type: "object",
    required: ["id", "kind", "name", "country", "active", "require_second_factor", "sign_in_notices", "created_at"],
    additionalProperties: false,
    properties: {
      ...DESCRIPTION_PROPERTIES,
      active: { type: "boolean" },
      require_second_factor: { type: "boolean" },
      sign_in_notices: { type: "boolean" },
      created_at: { type: "string", format: "date-time" },
    },
  },
};
