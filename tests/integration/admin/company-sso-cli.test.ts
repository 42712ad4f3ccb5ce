/**
 * `npm run admin -- companies sso …` and `companies domains …`: JSON on success, the secret sealed and never shown,
 * every change audited, one error line and nothing written on bad input; domains verified by a DNS lookup passed in,
 * and once through the real resolver against a DNS server on 127.0.0.1.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dnsTxtLookup, type TxtLookup } from "@/lib/admin/domain-verification";
import { parseAddressRanges } from "@/lib/config/address-ranges";
import { openClientSecret } from "@/lib/store/company-sso-store";
import { prismaStores } from "@/lib/store/stores";
import { runAdmin } from "../../helpers/admin-cli";
import { startDnsServer } from "../../helpers/dns-server";
import { SECRET_KEY, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const directory = mkdtempSync(path.join(tmpdir(), "optigate-company-sso-cli-"));
const db = () => service().database.db;
const admin = (...args: string[]) => runAdmin(db(), args);
const OPTICIAN = "demo-company-optician";
const TENANT = "6f5e4d3c-2b1a-4098-8765-43210fedcba9";
const ENTRA = {
  issuer: "https://login.microsoftonline.com/{tenantid}/v2.0",
  client_id: "2a3b4c5d-client",
  client_secret: "entra~secret.value",
  scope: "openid email profile",
  tenant_id: TENANT,
  claims: { groups: "groups", roles: { "optigate-admins": "admin" } },
};

function file(name: string, content: unknown): string {
  const target = path.join(directory, name);
  writeFileSync(target, typeof content === "string" ? content : JSON.stringify(content));
  return target;
}

const counts = () => Promise.all([db().companySso.count(), db().companyDomain.count(), db().auditEvent.count()]);
const lastEvent = () =>
  db().auditEvent.findFirstOrThrow({ where: { type: { startsWith: "company." } }, orderBy: { occurredAt: "desc" } });
/** A lookup that answers from a table, as DNS would; other names do not exist. */
const lookupOf =
  (records: Record<string, string[][]>): TxtLookup =>
  async (name) => {
    if (name in records) return records[name];
    throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: "ENOTFOUND" });
  };

describe(`companies sso on ${testProvider()}`, () => {
  it("sets a company's provider with its secret sealed and shows it without the secret, turned on", async () => {
    const set = await admin("companies", "sso", "set", OPTICIAN, file("entra.json", ENTRA));
    expect(set.code).toBe(0);
    const shown = {
      company_id: OPTICIAN,
      issuer: ENTRA.issuer,
      client_id: ENTRA.client_id,
      client_secret_set: true,
      token_endpoint_auth_method: "client_secret_basic",
      scope: "openid email profile",
      claims: {
        email: "email",
        given_name: "given_name",
        family_name: "family_name",
        groups: "groups",
        roles: { "optigate-admins": "admin" },
      },
      hosted_domain: null,
      tenant_id: TENANT,
      enabled: true,
      sso_only: false,
      registered_by_operator: true,
      tested_at: null,
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    };
    expect(JSON.parse(set.stdout)).toEqual(shown);
    expect(set.stdout).not.toContain("entra~secret");
    expect(set.stderr).toMatch(/has no verified domain yet, so nobody signs in there/);
    const row = await db().companySso.findUniqueOrThrow({ where: { companyId: OPTICIAN } });
    expect(row.clientSecretSealed).not.toContain("entra~secret");
    expect(openClientSecret({ sealedClientSecret: row.clientSecretSealed }, SECRET_KEY)).toBe(ENTRA.client_secret);
    const event = await lastEvent();
    expect(event.type).toBe("company.sso_set");
    expect(JSON.parse(event.details)).toMatchObject({ companyId: OPTICIAN, added: true, secretChanged: true });
    expect(JSON.parse((await admin("companies", "sso", "show", OPTICIAN)).stdout)).toEqual(shown);

    // Set again without the secret and switched off: the secret stays.
    const { client_secret: _secret, ...withoutSecret } = ENTRA;
    const again = await admin(
      "companies",
      "sso",
      "set",
      OPTICIAN,
      file("off.json", { ...withoutSecret, enabled: false }),
    );
    expect(again).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(again.stdout)).toMatchObject({ enabled: false, client_secret_set: true });
    const kept = await db().companySso.findUniqueOrThrow({ where: { companyId: OPTICIAN } });
    expect(openClientSecret({ sealedClientSecret: kept.clientSecretSealed }, SECRET_KEY)).toBe(ENTRA.client_secret);
  });

  it("turns the provider on and off, audited, and removes it", async () => {
    const company = "demo-company-vendor";
    const okta = { issuer: "https://vendor.okta.com", client_id: "0oa1", client_secret: "okta-secret" };
    expect((await admin("companies", "sso", "set", company, file("okta.json", { ...okta, enabled: false }))).code).toBe(
      0,
    );
    const enabled = await admin("companies", "sso", "enable", company);
    expect(enabled.code).toBe(0);
    expect(JSON.parse(enabled.stdout)).toMatchObject({ company_id: company, enabled: true });
    expect((await lastEvent()).type).toBe("company.sso_enabled");
    const before = await counts();
    expect(JSON.parse((await admin("companies", "sso", "enable", company)).stdout).enabled).toBe(true);
    expect(await counts()).toEqual(before);
    expect(JSON.parse((await admin("companies", "sso", "disable", company)).stdout).enabled).toBe(false);
    expect((await lastEvent()).type).toBe("company.sso_disabled");

    expect(JSON.parse((await admin("companies", "sso", "remove", company)).stdout)).toEqual({
      company_id: company,
      status: "removed",
    });
    expect((await lastEvent()).type).toBe("company.sso_removed");
    expect(await admin("companies", "sso", "remove", company)).toMatchObject({
      code: 1,
      stderr: `error: company "${company}" has no identity provider set up`,
    });
    expect(await admin("companies", "sso", "show", "no-such-company")).toMatchObject({
      code: 1,
      stderr: 'error: there is no company "no-such-company"',
    });
    expect((await admin("companies", "sso", "enable", company)).stderr).toBe(
      `error: company "${company}" has no identity provider set up`,
    );
  });

  const refusals: [string, string, unknown, string][] = [
    ["an unknown field", OPTICIAN, { ...ENTRA, clientId: "x" }, 'unknown field "clientId" (did you mean "client_id"?)'],
    ["an http issuer", OPTICIAN, { ...ENTRA, issuer: "http://idp.example" }, "must use https"],
    ["{tenantid} without tenant_id", OPTICIAN, { ...ENTRA, tenant_id: undefined }, "tenant_id is needed"],
    ["a scope without openid", OPTICIAN, { ...ENTRA, scope: "email" }, 'scope must include "openid"'],
    [
      "a role the company's kind has not",
      OPTICIAN,
      { ...ENTRA, claims: { groups: "groups", roles: { devs: "developer" } } },
      "claims.roles: the role developer is for software vendors' staff only",
    ],
    [
      "the operator's company",
      "demo-company-operator",
      ENTRA,
      'company "demo-company-operator" is the operator: operator accounts sign in with their password and second factor only',
    ],
    [
      "no secret where none is stored",
      "demo-company-lens",
      { ...ENTRA, client_secret: undefined },
      "client_secret is needed: no secret is stored for this company yet",
    ],
    ["an unknown company", "no-such-company", ENTRA, 'there is no company "no-such-company"'],
    ["a file that is no JSON", OPTICIAN, "{issuer:", "is not valid JSON"],
  ];

  it.each(refusals)("refuses %s with one error line, writing nothing", async (_case, company, content, message) => {
    const before = await counts();
    const result = await admin("companies", "sso", "set", company, file("refused.json", content));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderrLines).toHaveLength(1);
    expect(result.stderr).toContain(message);
    expect(await counts()).toEqual(before);
  });

  it("keeps a provider on a private address to OUTBOUND_ALLOW's ranges in production", async () => {
    const internal = file("internal.json", { issuer: "https://10.1.2.3/idp", client_id: "c", client_secret: "s" });
    const refused = await runAdmin(db(), ["companies", "sso", "set", "demo-company-lens", internal], {
      production: true,
    });
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining("10.1.2.3 is private (RFC 1918)") });
    const allowed = await runAdmin(db(), ["companies", "sso", "set", "demo-company-lens", internal], {
      production: true,
      outboundAllow: parseAddressRanges("10.0.0.0/8"),
    });
    expect(allowed.code).toBe(0);
  });

  it.each([
    [["companies", "sso"], "companies sso needs a command: set, show, enable, disable, remove"],
    [["companies", "sso", "sett", OPTICIAN], 'unknown command "companies sso sett"'],
    [["companies", "sso", "set", OPTICIAN], "companies sso set needs <file.json>"],
    [["companies", "domains", "add", OPTICIAN], "companies domains add needs <domain>"],
    [["companies", "domains", "add", OPTICIAN, "a.example", "--verify"], "unknown option --verify"],
    [["companies", "domains", "add", OPTICIAN, "a.example", "--verified", "--verified"], "--verified is given twice"],
    [["companies", "domains", "check", "a.example"], 'unknown command "companies domains check"'],
  ])("answers usage errors with exit code 2: %j", async (args, message) => {
    const result = await admin(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`error: ${message}`);
  });
});

describe(`companies domains on ${testProvider()}`, () => {
  const company = "demo-company-optician-sonne";

  it("claims a domain and prints the TXT record to create, then verifies it by DNS", async () => {
    const added = await admin("companies", "domains", "add", company, "Optik-Sonne.Example");
    expect(added.code).toBe(0);
    const domain = JSON.parse(added.stdout);
    const token = (await db().companyDomain.findUniqueOrThrow({ where: { domain: "optik-sonne.example" } }))
      .verificationToken;
    const record = {
      name: "_optigate-challenge.optik-sonne.example",
      type: "TXT",
      value: `optigate-domain-verification=${token}`,
    };
    expect(domain).toEqual({
      domain: "optik-sonne.example",
      company_id: company,
      verified: false,
      verified_at: null,
      verified_by: null,
      created_at: expect.any(String),
      dns_record: record,
    });
    expect(added.stderr).toBe(
      `To prove the domain, create the DNS record ${record.name} TXT "${record.value}", then run: npm run admin -- companies domains verify optik-sonne.example`,
    );
    expect((await lastEvent()).type).toBe("company.domain_added");

    const verify = (records: Record<string, string[][]>) =>
      runAdmin(db(), ["companies", "domains", "verify", "optik-sonne.example"], { dnsLookup: lookupOf(records) });
    expect(await verify({})).toMatchObject({
      code: 1,
      stderr: `error: there is no TXT record at ${record.name}: create one holding "${record.value}"`,
    });
    expect((await verify({ [record.name]: [["optigate-domain-verification=stale"]] })).stderr).toBe(
      `error: the TXT record at ${record.name} holds "optigate-domain-verification=stale", not "${record.value}"`,
    );
    const failing = await runAdmin(db(), ["companies", "domains", "verify", "optik-sonne.example"], {
      dnsLookup: async () => Promise.reject(Object.assign(new Error("servfail"), { code: "ESERVFAIL" })),
    });
    expect(failing.stderr).toBe(`error: the DNS lookup of ${record.name} failed (ESERVFAIL); try again later`);
    expect((await db().companyDomain.findUniqueOrThrow({ where: { domain: "optik-sonne.example" } })).verifiedAt).toBe(
      null,
    );

    const verified = await verify({ [record.name]: [["v=spf1 -all"], [record.value]] });
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ verified: true, verified_by: "dns" });
    expect(JSON.parse(verified.stdout).dns_record).toBeUndefined();
    expect((await lastEvent()).type).toBe("company.domain_verified");
  });

  it("vouches for a domain at once with --verified, lists and removes domains, and routes sign-in", async () => {
    const vouched = await admin("companies", "domains", "add", "--verified", OPTICIAN, "bücher.example");
    expect(vouched).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(vouched.stdout)).toMatchObject({
      domain: "xn--bcher-kva.example",
      verified: true,
      verified_by: "operator",
    });
    // Claimed without --verified first, then vouched for: the same domain, now verified.
    expect((await admin("companies", "domains", "add", OPTICIAN, "later.example")).code).toBe(0);
    const later = await admin("companies", "domains", "add", OPTICIAN, "later.example", "--verified");
    expect(JSON.parse(later.stdout)).toMatchObject({ domain: "later.example", verified_by: "operator" });
    const listed = JSON.parse((await admin("companies", "domains", "list", OPTICIAN, "--json")).stdout) as {
      domain: string;
    }[];
    expect(listed.map((row) => row.domain)).toEqual(["later.example", "xn--bcher-kva.example"]);

    const stores = prismaStores(db());
    expect(await stores.companySso.ssoForEmailDomain("later.example")).toBeNull(); // the provider is off
    expect((await admin("companies", "sso", "enable", OPTICIAN)).code).toBe(0);
    expect(await stores.companySso.ssoForEmailDomain("later.example")).toMatchObject({
      companyId: OPTICIAN,
      config: { issuer: ENTRA.issuer, tenantId: TENANT, enabled: true },
    });

    const removed = await admin("companies", "domains", "remove", "LATER.example");
    expect(JSON.parse(removed.stdout)).toMatchObject({ domain: "later.example", company_id: OPTICIAN });
    expect((await lastEvent()).type).toBe("company.domain_removed");
    expect(await stores.companySso.ssoForEmailDomain("later.example")).toBeNull();
    expect(await admin("companies", "domains", "remove", "later.example")).toMatchObject({
      code: 1,
      stderr: 'error: no company claims the domain "later.example"',
    });
  });

  it.each([
    [
      [company, "xn--bcher-kva.example"],
      'the domain "xn--bcher-kva.example" belongs to company "demo-company-optician"; remove it there first',
    ],
    [[company, "localhost"], '"localhost" is a single label: give the whole domain, such as example.com'],
    [[company, "192.0.2.1"], '"192.0.2.1" is not a domain name (an IP address is none)'],
    [[company, "example.com."], '"example.com." must not end with a dot'],
    [["no-such-company", "new.example"], 'there is no company "no-such-company"'],
  ])("refuses domains add %j, writing nothing", async (args, message) => {
    const before = await counts();
    const result = await admin("companies", "domains", "add", ...args);
    expect(result).toMatchObject({ code: 1, stdout: "", stderr: `error: ${message}` });
    expect(await counts()).toEqual(before);
  });

  it("refuses to list the domains of no company, and to verify a domain nobody claims", async () => {
    expect((await admin("companies", "domains", "list", "no-such-company")).stderr).toBe(
      'error: there is no company "no-such-company"',
    );
    expect((await admin("companies", "domains", "verify", "unclaimed.example")).stderr).toBe(
      'error: no company claims the domain "unclaimed.example"',
    );
  });

  describe("through the real resolver", () => {
    let dns: Awaited<ReturnType<typeof startDnsServer>>;
    const records = new Map<string, string[][]>();
    beforeAll(async () => {
      dns = await startDnsServer(records, new Set(["_optigate-challenge.silent.example"]));
    });
    afterAll(() => dns.close());

    it("verifies a domain whose record a DNS server on 127.0.0.1 holds, and reports one that does not answer", async () => {
      const lookup = dnsTxtLookup({ servers: [dns.server], timeoutMs: 600 });
      for (const name of ["resolved.example", "silent.example"])
        expect((await admin("companies", "domains", "add", company, name)).code).toBe(0);
      const token = (await db().companyDomain.findUniqueOrThrow({ where: { domain: "resolved.example" } }))
        .verificationToken;
      const verify = (domain: string) =>
        runAdmin(db(), ["companies", "domains", "verify", domain], { dnsLookup: lookup });
      expect((await verify("resolved.example")).stderr).toMatch(/^error: there is no TXT record at/);
      records.set("_optigate-challenge.resolved.example", [["optigate-domain-", `verification=${token}`]]);
      const verified = await verify("resolved.example");
      expect(verified.code).toBe(0);
      expect(JSON.parse(verified.stdout)).toMatchObject({ verified: true, verified_by: "dns" });
      expect((await verify("silent.example")).stderr).toBe(
        "error: the DNS lookup of _optigate-challenge.silent.example failed (no answer in time); try again later",
      );
    });
  });
});
