/**
 * A company's administrators look after their own people through POST /interaction/company (the forms of
 * /portal/company), operators after any company's, and the operator keeps companies through POST
 * /interaction/companies. Every refusal is a message key on the page after it, and writes nothing.
 */
import { describe, expect, it } from "vitest";
import { COMPANY_FORM_COOKIE, COMPANY_RECORD_COOKIE } from "@/lib/http/flash-cookies";
import { unsealedCookieValue } from "@/lib/http/sealed-cookie";
import { refreshDemoWeb, SECRET_KEY, signedInAgent, UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { userTokens } from "../../helpers/platform-api";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const db = () => service().database.db;
const OPTICIAN = ["optician@demo.test", "Optician#2026"] as const;

async function post(agent: UserAgent, form: Record<string, string>) {
  const response = await agent.post("company", "/interaction/company", form);
  const outcome = unsealedCookieValue<{ action: string; email: string; problem?: string; field?: string }>(
    COMPANY_FORM_COOKIE,
    agent.cookies.get(COMPANY_FORM_COOKIE),
    SECRET_KEY,
  );
  agent.cookies.delete(COMPANY_FORM_COOKIE);
  return { response, outcome };
}

const written = async () => ({
  invitations: await db().invitation.findMany({ orderBy: { email: "asc" } }),
  users: await db().user.findMany({ orderBy: { email: "asc" }, select: { email: true, role: true, active: true } }),
  mail: await db().outboxMessage.count(),
});

describe(`a company's people on ${testProvider()}`, () => {
  it("lets the optician's administrator invite a colleague, in her own company, named as the inviter", async () => {
    const admin = await signedInAgent(...OPTICIAN);
    const { response, outcome } = await post(admin, {
      action: "invite",
      email: "Kollege@Example.de",
      role: "user",
      language: "de",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/portal/company#people");
    expect(outcome).toEqual({ action: "invite", email: "Kollege@Example.de" });
    const optician = await db().user.findUniqueOrThrow({ where: { email: OPTICIAN[0] } });
    expect(await db().invitation.findUniqueOrThrow({ where: { email: "kollege@example.de" } })).toMatchObject({
      companyId: "demo-company-optician",
      invitedByUserId: optician.id,
      language: "de",
    });
    const invited = await db().auditEvent.findMany({ where: { type: "user.invited", userId: optician.id } });
    expect(invited.map((event) => JSON.parse(event.details).username)).toContain("kollege@example.de");
  });

  it("refuses bad input, another company, and people of other companies, writing nothing", async () => {
    const admin = await signedInAgent(...OPTICIAN);
    const before = await written();
    const cases: [Record<string, string>, string, string?][] = [
      [{ action: "invite", email: "no-domain@", role: "user" }, "invalid_email", "email"],
      [{ action: "invite", email: `${"x".repeat(250)}@example.de`, role: "user" }, "invalid_email", "email"],
      [{ action: "invite", email: "ok@example.de", role: "boss" }, "invalid_role", "role"],
      [{ action: "invite", email: "ok@example.de", role: "developer" }, "invalid_role", "role"],
      [{ action: "role", email: "optician@demo.test", role: "developer" }, "invalid_role", "role"],
      [{ action: "invite", email: "ok@example.de", language: "xx" }, "invalid_language", "language"],
      [{ action: "invite", email: "ok@example.de", company_id: "demo-company-lens" }, "other_company"],
      [{ action: "deactivate", email: "supplier@demo.test" }, "not_in_company"],
      [{ action: "role", email: "supplier@demo.test", role: "admin" }, "not_in_company"],
      [{ action: "revoke", email: "nobody@example.de" }, "not_in_company"],
      [{ action: "resend", email: "supplier@demo.test" }, "not_in_company"],
      [{ action: "explode", email: "ok@example.de" }, "unknown_action"],
      [{ action: "invite", email: "ok@example.de", csrf_token: "forged" }, "form_expired"],
    ];
    for (const [form, problem, field] of cases) {
      const { outcome } = await post(admin, form);
      expect(outcome, JSON.stringify(form)).toMatchObject({ problem, ...(field ? { field } : {}) });
    }
    expect(await written()).toEqual(before);
  });

  it("answers an address that has an account or another company's invitation as any other, inviting nobody", async () => {
    const operator = await signedInAgent("admin@demo.test", "Admin#2026");
    await post(operator, { action: "invite", email: "taken@example.de", company_id: "demo-company-lens" });
    const admin = await signedInAgent(...OPTICIAN);
    const before = await written();
    for (const email of ["supplier@demo.test", "taken@example.de"])
      expect((await post(admin, { action: "invite", email })).outcome, email).toEqual({ action: "invite", email });
    expect(await written()).toEqual(before);
    expect((await db().invitation.findUniqueOrThrow({ where: { email: "taken@example.de" } })).companyId).toBe(
      "demo-company-lens",
    );
    // The operator is told why.
    const told = await post(operator, {
      action: "invite",
      email: "supplier@demo.test",
      company_id: "demo-company-optician",
    });
    expect(told.outcome?.problem).toBe("already_user");
  });

  it("lets another company's expired invitation lapse: the address can be invited again", async () => {
    const operator = await signedInAgent("admin@demo.test", "Admin#2026");
    await post(operator, { action: "invite", email: "wanted@example.de", company_id: "demo-company-lens" });
    await db().invitation.update({
      where: { email: "wanted@example.de" },
      data: { expiresAt: new Date(Date.now() - 1) },
    });
    const admin = await signedInAgent(...OPTICIAN);
    expect((await post(admin, { action: "invite", email: "wanted@example.de" })).outcome?.problem).toBeUndefined();
    expect((await db().invitation.findUniqueOrThrow({ where: { email: "wanted@example.de" } })).companyId).toBe(
      "demo-company-optician",
    );
  });

  it("limits the invitations an administrator sends in an hour", async () => {
    const admin = await signedInAgent(...OPTICIAN);
    const optician = await db().user.findUniqueOrThrow({ where: { email: OPTICIAN[0] } });
    await db().loginThrottle.upsert({
      where: { key: `invite-inviter:${optician.id}` },
      create: { key: `invite-inviter:${optician.id}`, failures: 20, windowStartedAt: new Date() },
      update: { failures: 20, windowStartedAt: new Date() },
    });
    const before = await written();
    const { outcome } = await post(admin, { action: "invite", email: "one-too-many@example.de" });
    expect(outcome).toMatchObject({ problem: "throttled" });
    expect(await written()).toEqual(before);
    await db().loginThrottle.deleteMany({ where: { key: `invite-inviter:${optician.id}` } });
  });

  it("refuses users who are not administrators, and sends visitors to sign in", async () => {
    const before = await written();
    const user = await signedInAgent("supplier@demo.test", "Supplier#2026");
    expect((await post(user, { action: "invite", email: "ok@example.de" })).response.status).toBe(403);
    const visitor = await new UserAgent().post("company", "/interaction/company", {
      action: "invite",
      email: "a@b.de",
    });
    expect(visitor.headers.get("location")).toMatch(/^\/login\?/);
    expect(await written()).toEqual(before);
  });

  it("keeps the last administrator from demoting or deactivating herself", async () => {
    const admin = await signedInAgent(...OPTICIAN);
    const forms: Record<string, string>[] = [
      { action: "role", email: OPTICIAN[0], role: "user" },
      { action: "deactivate", email: OPTICIAN[0] },
    ];
    for (const form of forms) expect((await post(admin, form)).outcome?.problem).toBe("last_admin");
    expect(await db().user.findUniqueOrThrow({ where: { email: OPTICIAN[0] } })).toMatchObject({
      role: "admin",
      active: true,
    });
  });

  it("sends an invitation again with a new link, revokes one, changes roles, deactivates and activates", async () => {
    const admin = await signedInAgent(...OPTICIAN);
    await post(admin, { action: "invite", email: "twice@example.de", role: "admin" });
    // Inviting again is sending again, and the page says so.
    expect((await post(admin, { action: "invite", email: "twice@example.de", role: "admin" })).outcome?.action).toBe(
      "resend",
    );
    const first = await db().invitation.findUniqueOrThrow({ where: { email: "twice@example.de" } });
    expect((await post(admin, { action: "resend", email: "twice@example.de" })).outcome?.problem).toBeUndefined();
    const second = await db().invitation.findUniqueOrThrow({ where: { email: "twice@example.de" } });
    expect(second.tokenHash).not.toBe(first.tokenHash);
    expect(second.role).toBe("admin");
    // The first mail, not yet sent, is dropped with its link; the new one waits.
    expect(await db().outboxMessage.count({ where: { recipient: "twice@example.de" } })).toBe(1);
    await post(admin, { action: "revoke", email: "twice@example.de" });
    expect(await db().invitation.count({ where: { email: "twice@example.de" } })).toBe(0);
    expect(await db().outboxMessage.count({ where: { recipient: "twice@example.de", status: "queued" } })).toBe(0);

    // The demo's invited colleague joins (as a user made by invitation would), then is looked after.
    const user = await db().user.create({
      data: {
        email: "helga@example.de",
        companyId: "demo-company-optician",
        givenName: "Helga",
        familyName: "Hilfe",
        passwordHash: (await db().user.findUniqueOrThrow({ where: { email: OPTICIAN[0] } })).passwordHash,
      },
    });
    expect(
      (await post(admin, { action: "role", email: "helga@example.de", role: "admin" })).outcome?.problem,
    ).toBeUndefined();
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).role).toBe("admin");

    const helga = await signedInAgent("helga@example.de", OPTICIAN[1]);
    const tokens = await userTokens("helga@example.de", OPTICIAN[1], "openid offline_access", helga);
    expect((await post(admin, { action: "deactivate", email: "helga@example.de" })).outcome?.problem).toBeUndefined();
    expect((await refreshDemoWeb(tokens.refresh_token!)).status).toBe(400);
    await expect(signedInAgent("helga@example.de", OPTICIAN[1])).rejects.toThrow(/could not sign in/);
    expect((await post(admin, { action: "activate", email: "helga@example.de" })).outcome?.problem).toBeUndefined();
    await signedInAgent("helga@example.de", OPTICIAN[1]);

    // With a second administrator, the first may step down.
    expect((await post(admin, { action: "role", email: OPTICIAN[0], role: "user" })).outcome?.problem).toBeUndefined();
    const helgaAdmin = await signedInAgent("helga@example.de", OPTICIAN[1]);
    await post(helgaAdmin, { action: "role", email: OPTICIAN[0], role: "admin" });
    expect((await db().user.findUniqueOrThrow({ where: { email: OPTICIAN[0] } })).role).toBe("admin");
  });

  it("lifts a colleague's sign-in lock-out", async () => {
    const admin = await signedInAgent(...OPTICIAN);
    const hash = (await db().user.findUniqueOrThrow({ where: { email: OPTICIAN[0] } })).passwordHash;
    await db().user.create({
      data: {
        email: "locked@example.de",
        companyId: "demo-company-optician",
        givenName: "L",
        familyName: "O",
        passwordHash: hash,
      },
    });
    for (let attempt = 0; attempt < 5; attempt++)
      await new UserAgent().login("/", "locked@example.de", "wrong password");
    await expect(signedInAgent("locked@example.de", OPTICIAN[1])).rejects.toThrow(/could not sign in/);
    expect((await post(admin, { action: "unlock", email: "locked@example.de" })).outcome).toEqual({
      action: "unlock",
      email: "locked@example.de",
    });
    await signedInAgent("locked@example.de", OPTICIAN[1]);
    expect((await post(admin, { action: "unlock", email: "supplier@demo.test" })).outcome?.problem).toBe(
      "not_in_company",
    );
    // With a second factor, guessed codes share the lock: only a right factor or an operator lifts it.
    const locked = await db().user.findUniqueOrThrow({ where: { email: "locked@example.de" } });
    await db().totpFactor.create({ data: { userId: locked.id, sealedSecret: "sealed", confirmedAt: new Date() } });
    expect((await post(admin, { action: "unlock", email: "locked@example.de" })).outcome?.problem).toBe(
      "second_factor_lock",
    );
  });

  it("keeps an operator's deactivation from the company's administrator", async () => {
    const operator = await signedInAgent("admin@demo.test", "Admin#2026");
    const admin = await signedInAgent(...OPTICIAN);
    const hash = (await db().user.findUniqueOrThrow({ where: { email: OPTICIAN[0] } })).passwordHash;
    await db().user.create({
      data: {
        email: "benched@example.de",
        companyId: "demo-company-optician",
        givenName: "B",
        familyName: "O",
        passwordHash: hash,
      },
    });
    await post(operator, { action: "deactivate", email: "benched@example.de", company_id: "demo-company-optician" });
    expect((await post(admin, { action: "activate", email: "benched@example.de" })).outcome?.problem).toBe(
      "operator_decision",
    );
    expect((await db().user.findUniqueOrThrow({ where: { email: "benched@example.de" } })).active).toBe(false);
    await post(operator, { action: "activate", email: "benched@example.de", company_id: "demo-company-optician" });
    await post(admin, { action: "deactivate", email: "benched@example.de" });
    expect((await post(admin, { action: "activate", email: "benched@example.de" })).outcome?.problem).toBeUndefined();
    // The operator's word on a person the administrator deactivated makes it the operator's decision too.
    await post(admin, { action: "deactivate", email: "benched@example.de" });
    await post(operator, { action: "deactivate", email: "benched@example.de", company_id: "demo-company-optician" });
    expect((await post(admin, { action: "activate", email: "benched@example.de" })).outcome?.problem).toBe(
      "operator_decision",
    );
  });

  it("lets the operator look after any company's people, naming the company", async () => {
    const operator = await signedInAgent("admin@demo.test", "Admin#2026");
    const { response, outcome } = await post(operator, {
      action: "invite",
      email: "lens-new@example.de",
      role: "admin",
      company_id: "demo-company-lens",
    });
    expect(response.headers.get("location")).toBe("/admin/companies/demo-company-lens#people");
    expect(outcome?.problem).toBeUndefined();
    expect((await db().invitation.findUniqueOrThrow({ where: { email: "lens-new@example.de" } })).companyId).toBe(
      "demo-company-lens",
    );
    expect(
      (await post(operator, { action: "invite", email: "x@example.de", company_id: "no-such" })).response.status,
    ).toBe(403);
  });
});

describe(`the operator's company forms on ${testProvider()}`, () => {
  async function save(agent: UserAgent, form: Record<string, string>) {
    const response = await agent.post("companies", "/interaction/companies", form);
    const refused = unsealedCookieValue<{ reason: string; typed: Record<string, string> }>(
      COMPANY_RECORD_COOKIE,
      agent.cookies.get(COMPANY_RECORD_COOKIE),
      SECRET_KEY,
    );
    agent.cookies.delete(COMPANY_RECORD_COOKIE);
    return { response, refused };
  }

  it("adds and changes a company from its fields, and refuses bad ones with the reason and what was typed", async () => {
    const operator = await signedInAgent("admin@demo.test", "Admin#2026");
    const added = await save(operator, {
      action: "save",
      id: "optik-nord",
      kind: "eye_care_professional",
      name: "Optik Nord",
      country: " de ",
      supplier_id: "ignored-for-opticians",
    });
    expect(added.response.headers.get("location")).toBe("/admin/companies/optik-nord?saved=1");
    expect(await db().company.findUniqueOrThrow({ where: { id: "optik-nord" } })).toMatchObject({
      name: "Optik Nord",
      country: "DE",
      supplierId: null,
    });
    const count = await db().company.count();
    const refused = await save(operator, { action: "save", kind: "supplier", name: "Lieferant", country: "DE" });
    expect(refused.refused).toMatchObject({
      reason: expect.stringMatching(/supplier_id/),
      typed: { name: "Lieferant" },
    });
    const badJson = await save(operator, {
      action: "save",
      kind: "supplier",
      name: "Lieferant",
      country: "DE",
      supplier_id: "L1",
      web_services: "[{",
    });
    expect(badJson.refused?.reason).toMatch(/web_services must be a JSON list/);
    expect(
      (await save(operator, { action: "save", kind: "eye_care_professional", name: "X", country: "XX" })).refused
        ?.reason,
    ).toMatch(/country/);
    expect(await db().company.count()).toBe(count);

    await save(operator, {
      action: "save",
      company_id: "optik-nord",
      kind: "eye_care_professional",
      name: "Optik Nord GmbH",
      country: "AT",
    });
    expect(await db().company.findUniqueOrThrow({ where: { id: "optik-nord" } })).toMatchObject({
      name: "Optik Nord GmbH",
      country: "AT",
    });
    const deactivated = await save(operator, { action: "deactivate", company_id: "optik-nord" });
    expect(deactivated.response.headers.get("location")).toBe("/admin/companies/optik-nord?deactivated=1");
    expect((await db().company.findUniqueOrThrow({ where: { id: "optik-nord" } })).active).toBe(false);
    await save(operator, { action: "activate", company_id: "optik-nord" });
    expect((await db().company.findUniqueOrThrow({ where: { id: "optik-nord" } })).active).toBe(true);

    // The operator company is never deactivated: its people run the platform.
    const own = await save(operator, { action: "deactivate", company_id: "demo-company-operator" });
    expect(own.response.headers.get("location")).toBe("/admin/companies/demo-company-operator#company-form");
    expect(own.refused?.reason).toBe(
      'company "demo-company-operator" is the operator: it cannot be deactivated, as its people run the platform',
    );
    expect((await db().company.findUniqueOrThrow({ where: { id: "demo-company-operator" } })).active).toBe(true);
    expect(await db().user.count({ where: { companyId: "demo-company-operator", active: false } })).toBe(0);
  });

  it("answers everyone but operators with 403 and writes nothing", async () => {
    const count = await db().company.count();
    const optician = await signedInAgent(...OPTICIAN);
    const form = { action: "save", kind: "operator", name: "Takeover", country: "DE" };
    expect((await save(optician, form)).response.status).toBe(403);
    expect((await save(new UserAgent(), form)).response.status).toBe(403);
    expect((await save(optician, { action: "deactivate", company_id: "demo-company-lens" })).response.status).toBe(403);
    expect(await db().company.count()).toBe(count);
    expect((await db().company.findUniqueOrThrow({ where: { id: "demo-company-lens" } })).active).toBe(true);
  });
});
