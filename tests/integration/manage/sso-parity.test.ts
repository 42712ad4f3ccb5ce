/**
 * Parity of the company page's sign-in forms and their management API twins (issue 48): the same company's
 * administrator on /portal/company (POST /interaction/company/sso) and the company's own client on
 * /manage/v1/companies/{id}/sso and …/domains refuse the same invalid settings and domains with the same rule's
 * message, and accept the same valid ones with the same result. The API's body is made from the form by the page's
 * own translation (providerDescription), so both judge one description.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { verificationRecord, type TxtLookup } from "@/lib/admin/domain-verification";
import { answerManageRequest } from "@/lib/api/manage/manage-api";
import { MANAGE_ROUTES } from "@/lib/api/manage/manage-routes";
import { MAX_DOMAINS_PER_COMPANY } from "@/lib/config/policy";
import { providerDescription } from "@/lib/forms/company-sso-settings-form";
import { getServiceContext } from "@/lib/service-context";
import { prismaStores } from "@/lib/store/stores";
import { postCompanySso } from "../../helpers/company-sso-forms";
import { MANAGE_DOCUMENT, managementToken } from "../../helpers/manage-api";
import { ISSUER, signedInAgent, type UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { documentChecker } from "../../helpers/platform-api";
import { testProvider } from "../../helpers/test-database";

const LENS = "demo-company-lens";
const OPTICIAN = "demo-company-optician";
const LENS_ADMIN = "boss@lens.example";

const service = useOAuthService();
const db = () => service().database.db;
const stores = () => prismaStores(db());
const checkAgainstManageDocument = documentChecker(MANAGE_DOCUMENT);

let page: UserAgent;
let token: string;

/** The settings form as the page posts it. */
const form = (changes: Record<string, string> = {}) => ({
  action: "settings",
  issuer: "https://login.lens-idp.example",
  client_id: "optigate",
  client_secret: "lens-upstream-secret",
  token_endpoint_auth_method: "client_secret_basic",
  scope: "openid email profile",
  claim_email: "",
  claim_given_name: "",
  claim_family_name: "",
  claim_groups: "groups",
  roles: "lens-admins=admin\nlens-staff=user",
  hosted_domain: "",
  tenant_id: "",
  ...changes,
});

/** One management API call as the company's own client, with the DNS lookup given (both sides get the same). */
async function api(method: string, path: string, options: { body?: unknown; ifMatch?: string; dns?: TxtLookup } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.ifMatch) headers["if-match"] = options.ifMatch;
  const request = new Request(`${ISSUER}/manage/v1/companies/${LENS}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const context = { ...getServiceContext(), ...(options.dns ? { dnsLookup: options.dns } : {}) };
  const response = await answerManageRequest(MANAGE_ROUTES, request, context);
  return { response, body: await checkAgainstManageDocument(method, `/manage/v1/companies/${LENS}${path}`, response) };
}

const currentEtag = async () => (await api("GET", "/sso")).response.headers.get("etag") ?? undefined;

/** The API's twin of the settings form: the same description, with If-Match when settings exist. */
const putSettings = async (changes: Record<string, string>) =>
  api("PUT", "/sso", {
    body: providerDescription(new URLSearchParams(form(changes))),
    ifMatch: await currentEtag(),
  });

/** What both sides may write. */
const written = async () => ({
  sso: await db().companySso.findMany({ orderBy: { companyId: "asc" } }),
  domains: await db().companyDomain.findMany({ orderBy: { domain: "asc" } }),
});

beforeAll(async () => {
  const optician = await db().user.findUniqueOrThrow({ where: { email: "optician@demo.test" } });
  await db().user.create({
    data: {
      email: LENS_ADMIN,
      companyId: LENS,
      role: "admin",
      givenName: "Bo",
      familyName: "Lens",
      passwordHash: optician.passwordHash,
    },
  });
  page = await signedInAgent(LENS_ADMIN, "Optician#2026");
  token = (await managementToken(stores(), ["manage.company.sso.read", "manage.company.sso.write"], LENS)).token;
});

describe(`the company page and the management API judge alike on ${testProvider()}`, () => {
  it("refuse the same invalid settings with the same rule's message, writing nothing", async () => {
    const before = await written();
    const cases: Record<string, string>[] = [
      { client_secret: "" },
      { issuer: "no address" },
      { issuer: "https://login.lens-idp.example?tenant=x" },
      { issuer: "ftp://idp.example" },
      { issuer: "https://login.lens-idp.example/{tenantid}/{tenantid}" },
      { client_id: "" },
      { client_id: "with space" },
      { client_secret: "with spaces in it" },
      { token_endpoint_auth_method: "none" },
      { token_endpoint_auth_method: "private_key_jwt" },
      { scope: "email profile" },
      { scope: "openid openid" },
      { claim_email: "mail address" },
      { roles: "lens-admins=boss" },
      { claim_groups: "", roles: "lens-admins=admin" },
      { roles: "lens-devs=developer" },
      { hosted_domain: "not a domain" },
      { issuer: "https://login.lens-idp.example/{tenantid}/v2.0" },
      { tenant_id: "contoso" },
    ];
    for (const changes of cases) {
      const where = JSON.stringify(changes);
      const { outcome } = await postCompanySso(page, form(changes));
      const twin = await putSettings(changes);
      expect(outcome?.problem, where).toEqual(expect.any(String));
      expect([422, 409], where).toContain(twin.response.status);
      // The page shows the rule's own words under its message wherever it has them: the API's detail, word for word.
      if (outcome?.detail) expect(twin.body.detail, where).toBe(outcome.detail);
      else expect(twin.body.detail, where).toMatch(/^client_secret is needed/);
    }
    expect(await written()).toEqual(before);
  });

  it("accept the same valid settings and store the same provider", async () => {
    const valid: Record<string, string>[] = [
      {},
      { client_secret: "" },
      { scope: "openid email", claim_email: "mail", hosted_domain: "Lens.Example" },
      {
        issuer: "https://login.microsoftonline.com/{tenantid}/v2.0",
        tenant_id: "3F2504E0-4F89-11D3-9A0C-0305E82C3301",
        client_secret: "another-secret",
      },
      { token_endpoint_auth_method: "private_key_jwt", client_secret: "" },
    ];
    const stored = async () => {
      const row = await db().companySso.findUniqueOrThrow({ where: { companyId: LENS } });
      const { issuer, clientId, authMethod, scope, claims, hostedDomain, tenantId, registeredByOperator } = row;
      return { issuer, clientId, authMethod, scope, claims, hostedDomain, tenantId, registeredByOperator };
    };
    for (const changes of valid) {
      const where = JSON.stringify(changes);
      const { outcome } = await postCompanySso(page, form(changes));
      expect(outcome, where).toEqual({ action: "settings" });
      const byPage = await stored();
      const twin = await putSettings(changes);
      expect(twin.response.status, where).toBe(200);
      expect(await stored(), where).toEqual(byPage);
      expect(byPage.registeredByOperator, where).toBe(false);
    }
  });

  it("switch sign-in alike, and refuse alike while nothing is set up", async () => {
    for (const action of ["enable", "disable"] as const) {
      const { outcome } = await postCompanySso(page, { action });
      expect(outcome, action).toEqual({ action });
      const twin = await api("POST", `/sso/${action}`);
      expect([twin.response.status, twin.body.enabled], action).toEqual([200, action === "enable"]);
    }
    await api("DELETE", "/sso");
    expect((await postCompanySso(page, { action: "enable" })).outcome).toMatchObject({ problem: "no_provider" });
    const twin = await api("POST", "/sso/enable");
    expect([twin.response.status, twin.body.detail]).toEqual([404, "the company has no identity provider set up"]);
  });

  it("refuse the same domains with the same rule's message, and accept the same ones", async () => {
    // Another company's verified domain, and one the company does not claim.
    const { stores: live } = getServiceContext();
    await live.companySso.addDomain(
      { domain: "held.example", companyId: OPTICIAN, verificationToken: "t", verifiedBy: "operator" },
      undefined,
    );
    const before = await written();
    const refused: [string, string, string, number][] = [
      ["domain-add", "not a domain", "invalid_domain", 422],
      ["domain-add", "192.0.2.1", "invalid_domain", 422],
      ["domain-add", "held.example", "domain_taken", 422],
      ["domain-verify", "held.example", "domain_not_found", 404],
      ["domain-verify", "unclaimed.example", "domain_not_found", 404],
      ["domain-remove", "held.example", "domain_not_found", 404],
    ];
    for (const [action, domain, problem, status] of refused) {
      const where = `${action} ${domain}`;
      const { outcome } = await postCompanySso(page, { action, domain });
      expect(outcome?.problem, where).toBe(problem);
      const twin =
        action === "domain-add"
          ? await api("POST", "/domains", { body: { domain } })
          : action === "domain-verify"
            ? await api("POST", `/domains/${encodeURIComponent(domain)}/verify`)
            : await api("DELETE", `/domains/${encodeURIComponent(domain)}`);
      expect(twin.response.status, where).toBe(status);
      if (outcome?.detail) expect(twin.body.detail, where).toBe(outcome.detail);
      // Who holds another company's domain is the operator's to know, on both sides.
      expect(JSON.stringify([outcome, twin.body]), where).not.toContain(OPTICIAN);
    }
    expect(await written()).toEqual(before);

    // Claimed on either side alike, and proved by the same DNS answers alike.
    const byPage = await postCompanySso(page, { action: "domain-add", domain: "Page.Lens.example" });
    expect(byPage.outcome).toEqual({ action: "domain-add", domain: "page.lens.example" });
    const byApi = await api("POST", "/domains", { body: { domain: "Api.Lens.example" } });
    expect([byApi.response.status, byApi.body.domain]).toEqual([201, "api.lens.example"]);
    const tokenOf = async (domain: string) =>
      (await db().companyDomain.findUniqueOrThrow({ where: { domain } })).verificationToken;
    const answers: [string, (domain: string, token: string) => string[][]][] = [
      ["no_record", () => []],
      ["wrong_value", () => [["optigate-domain-verification=wrong"]]],
    ];
    for (const [problem, answer] of answers) {
      // Both sides verify the domain the page claimed, with the same DNS answer.
      const domain = "page.lens.example";
      const dns = async () => answer(domain, await tokenOf(domain));
      const onPage = await postCompanySso(page, { action: "domain-verify", domain }, { dnsLookup: dns });
      expect(onPage.outcome?.problem).toBe(problem);
      const twin = await api("POST", `/domains/${domain}/verify`, { dns });
      expect([twin.response.status, twin.body.detail]).toEqual([422, onPage.outcome!.detail]);
    }
    for (const domain of ["page.lens.example", "api.lens.example"]) {
      const record = [[verificationRecord(domain, await tokenOf(domain)).value]];
      const verified =
        domain === "page.lens.example"
          ? (await postCompanySso(page, { action: "domain-verify", domain }, { dnsLookup: async () => record })).outcome
          : (await api("POST", `/domains/${domain}/verify`, { dns: async () => record })).body;
      expect(verified, domain).toMatchObject({ domain });
      expect((await db().companyDomain.findUniqueOrThrow({ where: { domain } })).verifiedBy, domain).toBe("dns");
    }

    // The most domains a company may claim: the same refusal on both sides.
    const count = await db().companyDomain.count({ where: { companyId: LENS } });
    for (let n = count; n < MAX_DOMAINS_PER_COMPANY; n++)
      expect((await api("POST", "/domains", { body: { domain: `d${n}.lens.example` } })).response.status).toBe(201);
    const full = await postCompanySso(page, { action: "domain-add", domain: "more.lens.example" });
    expect(full.outcome?.problem).toBe("too_many_domains");
    const twin = await api("POST", "/domains", { body: { domain: "more.lens.example" } });
    expect([twin.response.status, twin.body.detail]).toEqual([422, full.outcome!.detail]);

    // Given up on either side alike.
    expect((await postCompanySso(page, { action: "domain-remove", domain: "page.lens.example" })).outcome).toEqual({
      action: "domain-remove",
      domain: "page.lens.example",
    });
    expect((await api("DELETE", "/domains/api.lens.example")).response.status).toBe(204);
  });
});
