/**
 * Who holds an email domain when two companies claim it (issue 46, security review): on a real database, through the
 * company page's form (POST /interaction/company/sso) and the operator CLI. A claim nobody proved blocks nobody: a
 * company claiming a domain another holds unverified takes it over, audited for both; a domain proved by DNS (or an
 * operator's word) stays with its company. Verifying marks only the claim whose record was looked up, and a company
 * claims at most MAX_DOMAINS_PER_COMPANY domains.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { verificationRecord } from "@/lib/admin/domain-verification";
import { MAX_DOMAINS_PER_COMPANY } from "@/lib/config/policy";
import { getServiceContext } from "@/lib/service-context";
import english from "@/messages/en.json";
import german from "@/messages/de.json";
import { runAdmin } from "../../helpers/admin-cli";
import { postCompanySso } from "../../helpers/company-sso-forms";
import { signedInAgent, type UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const OPTICIAN = ["optician@demo.test", "Optician#2026"] as const;
const COMPANY = "demo-company-optician";
const LENS = "demo-company-lens";
const LENS_ADMIN = "boss@lens.example";

const service = useOAuthService();
const db = () => service().database.db;
const admin = (...args: string[]) => runAdmin(db(), args);
let owner: UserAgent;
let squatter: UserAgent;

const holderOf = (domain: string) => db().companyDomain.findUnique({ where: { domain } });
const userId = async (email: string) => (await db().user.findUniqueOrThrow({ where: { email } })).id;
const claim = (agent: UserAgent, domain: string) => postCompanySso(agent, { action: "domain-add", domain });

/** Verifies the domain on the page, the DNS answering with the record of `token` (and doing `meanwhile` first). */
const verifyByDns = (agent: UserAgent, domain: string, token: string, meanwhile = async () => {}) =>
  postCompanySso(
    agent,
    { action: "domain-verify", domain },
    {
      dnsLookup: async () => {
        await meanwhile();
        return [[verificationRecord(domain, token).value]];
      },
    },
  );

beforeAll(async () => {
  const optician = await db().user.findUniqueOrThrow({ where: { email: OPTICIAN[0] } });
  const name = { givenName: "Bo", familyName: "Lens", passwordHash: optician.passwordHash };
  await db().user.create({ data: { ...name, email: LENS_ADMIN, companyId: LENS, role: "admin" } });
  owner = await signedInAgent(...OPTICIAN);
  squatter = await signedInAgent(LENS_ADMIN, OPTICIAN[1]);
});

describe(`claims of one domain by two companies on ${testProvider()}`, () => {
  it("lets the real owner take over a domain another company claimed and never proved, audited for both", async () => {
    expect((await claim(squatter, "victim-corp.example")).outcome).toEqual({
      action: "domain-add",
      domain: "victim-corp.example",
    });
    const squatted = await holderOf("victim-corp.example");
    const taken = await claim(owner, "victim-corp.example");
    expect(taken.outcome).toEqual({ action: "domain-add", domain: "victim-corp.example" });
    const held = await holderOf("victim-corp.example");
    expect(held).toMatchObject({ companyId: COMPANY, verifiedAt: null });
    expect(held?.verificationToken).not.toBe(squatted?.verificationToken);

    const events = await db().auditEvent.findMany({
      where: { userId: await userId(OPTICIAN[0]), details: { contains: '"victim-corp.example"' } },
      orderBy: { occurredAt: "asc" },
    });
    expect(events.map((event) => [event.type, JSON.parse(event.details).companyId])).toEqual([
      ["company.domain_removed", LENS],
      ["company.domain_added", COMPANY],
    ]);

    // The operator's claim takes over an unproved one just as well, and may vouch for it as it does.
    expect((await claim(squatter, "cli-victim.example")).outcome).not.toHaveProperty("problem");
    const added = await admin("companies", "domains", "add", COMPANY, "cli-victim.example", "--verified");
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ company_id: COMPANY, verified: true, verified_by: "operator" });
  });

  it("keeps a proved domain with its company: the page and the CLI are refused, also with --verified", async () => {
    const { verificationToken } = (await holderOf("victim-corp.example"))!;
    expect((await verifyByDns(owner, "victim-corp.example", verificationToken)).outcome).toEqual({
      action: "domain-verify",
      domain: "victim-corp.example",
    });
    const proved = await holderOf("victim-corp.example");
    expect((await claim(squatter, "victim-corp.example")).outcome).toMatchObject({
      problem: "domain_taken",
      field: "domain",
    });
    for (const verified of [[], ["--verified"]]) {
      const refused = await admin("companies", "domains", "add", LENS, "victim-corp.example", ...verified);
      expect(refused).toMatchObject({
        code: 1,
        stderr: `error: the domain "victim-corp.example" belongs to company "${COMPANY}"; remove it there first`,
      });
    }
    expect(await holderOf("victim-corp.example")).toEqual(proved);
  });

  it("verifies only the claim whose record was looked up: one taken over during the lookup stays unproved", async () => {
    await claim(squatter, "raced.example");
    const { verificationToken } = (await holderOf("raced.example"))!;
    const raced = await verifyByDns(squatter, "raced.example", verificationToken, async () => {
      expect((await claim(owner, "raced.example")).outcome).not.toHaveProperty("problem");
    });
    expect(raced.outcome).toMatchObject({ action: "domain-verify", problem: "domain_not_found" });
    expect(await holderOf("raced.example")).toMatchObject({ companyId: COMPANY, verifiedAt: null });
    expect(
      await db().auditEvent.count({ where: { type: "company.domain_verified", details: { contains: "raced" } } }),
    ).toBe(0);
  });

  it(`refuses a company more than ${MAX_DOMAINS_PER_COMPANY} domains, on the page in its language and at the CLI`, async () => {
    const { stores } = getServiceContext();
    const held = await db().companyDomain.count({ where: { companyId: COMPANY } });
    for (let n = held; n < MAX_DOMAINS_PER_COMPANY; n++)
      await stores.companySso.addDomain({
        domain: `branch-${n}.example`,
        companyId: COMPANY,
        verificationToken: `token-${n}`,
        verifiedBy: null,
      });
    await claim(squatter, "wanted.example");
    const before = await db().companyDomain.findMany({ orderBy: { domain: "asc" } });

    for (const domain of ["one-too-many.example", "wanted.example"]) {
      const { outcome } = await claim(owner, domain);
      expect(outcome, domain).toMatchObject({ action: "domain-add", problem: "too_many_domains", field: "domain" });
      expect(outcome?.detail, domain).toContain(`claims ${MAX_DOMAINS_PER_COMPANY} domains already`);
    }
    const problems = [english, german].map(
      (messages) => (messages.CompanySso.problems as Record<string, string>).too_many_domains,
    );
    expect(problems[0]).toEqual(expect.any(String));
    expect(problems[1]).not.toBe(problems[0]);
    expect(await admin("companies", "domains", "add", COMPANY, "one-too-many.example")).toMatchObject({
      code: 1,
      stderr: `error: company "${COMPANY}" claims ${MAX_DOMAINS_PER_COMPANY} domains already, the most a company may; remove one first`,
    });
    // A domain the company holds is still given back.
    expect((await claim(owner, "raced.example")).outcome).toEqual({ action: "domain-add", domain: "raced.example" });
    expect(await db().companyDomain.findMany({ orderBy: { domain: "asc" } })).toEqual(before);
  });
});
