/**
 * The pages and the management API keep the same rules on people and invitations. Each action of the company page's
 * form (POST /interaction/company, behind /portal/company and the operator's /admin/companies/<id>) and its API twin
 * get the same refused input: both refuse it by the same rule (the page names the rule's code, the API's problem
 * carries the rule's own message; a person of another company is absent to both) and write nothing. Both accept the
 * same valid input, with the same effect.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { checkRoleFits, parseEmail, parseLanguage, parseRole, PersonFieldError } from "@/lib/admin/person-fields";
import { COMPANY_FORM_COOKIE } from "@/lib/http/flash-cookies";
import { unsealedCookieValue } from "@/lib/http/sealed-cookie";
import { prismaStores } from "@/lib/store/stores";
import { accountThrottleKey } from "@/lib/store/throttle-store";
import { SECRET_KEY, signedInAgent, useOAuthService, type UserAgent } from "../../helpers/oauth-service";
import { manage, managementToken } from "../../helpers/manage-api";
import { testProvider } from "../../helpers/test-database";
import { thrown } from "../../helpers/thrown";

const service = useOAuthService();
const db = () => service().database.db;
const OPTICIAN = "demo-company-optician";
const WRITE = ["manage.company.users.read", "manage.company.users.write"];

type Method = Parameters<typeof manage>[0];
type ApiCall = [Method, string, Parameters<typeof manage>[2]?];

/** The page's answer to a form: the outcome in its one-time cookie. */
async function post(agent: UserAgent, form: Record<string, string>) {
  await agent.post("company", "/interaction/company", form);
  const outcome = unsealedCookieValue<{ action: string; email: string; problem?: string }>(
    COMPANY_FORM_COOKIE,
    agent.cookies.get(COMPANY_FORM_COOKIE),
    SECRET_KEY,
  );
  agent.cookies.delete(COMPANY_FORM_COOKIE);
  return outcome;
}

const written = async () => ({
  invitations: await db().invitation.findMany({ orderBy: { email: "asc" } }),
  users: await db().user.findMany({ orderBy: { email: "asc" }, select: { email: true, role: true, active: true } }),
  mail: await db().outboxMessage.count(),
});

/** A rule's refusal: its code (which the page names) and message (which the API's problem carries). */
const rule = (code: string, message: string) => ({ code, message });
const ruleOf = (action: () => unknown) => {
  const error = thrown(PersonFieldError, action);
  return rule(error.code, error.message);
};

async function person(email: string, companyId = OPTICIAN, role = "user") {
  const { passwordHash } = await db().user.findUniqueOrThrow({ where: { email: "optician@demo.test" } });
  return db().user.create({ data: { email, companyId, role, passwordHash, givenName: "Pia", familyName: "Paar" } });
}

const lock = (email: string) =>
  db().loginThrottle.upsert({
    where: { key: accountThrottleKey(email) },
    create: { key: accountThrottleKey(email), failures: 5, windowStartedAt: new Date(), lockedUntil: new Date(9e12) },
    update: { lockedUntil: new Date(9e12) },
  });

const idOf = async (email: string) => (await db().user.findUniqueOrThrow({ where: { email } })).id;
const etagOf = async (token: string, userId: string) =>
  (await manage("GET", `/users/${userId}`, { token })).response.headers.get("etag")!;

let admin: UserAgent;
let client: string;

beforeAll(async () => {
  admin = await signedInAgent("optician@demo.test", "Optician#2026");
  client = (await managementToken(prismaStores(db()), WRITE, OPTICIAN)).token;
});

describe(`the pages and the management API on people, on ${testProvider()}`, () => {
  it("refuse the same input by the same rule, and write nothing", async () => {
    const opticianId = await idOf("optician@demo.test");
    const supplierId = await idOf("supplier@demo.test");
    const member = await person("member@optik.example");
    const guarded = await person("guarded@optik.example");
    await lock(guarded.email);
    await db().totpFactor.create({ data: { userId: guarded.id, sealedSecret: "sealed", confirmedAt: new Date() } });
    const benched = await person("benched@optik.example");
    const operator = await signedInAgent("admin@demo.test", "Admin#2026");
    await post(operator, { action: "deactivate", email: benched.email, company_id: OPTICIAN });
    const gone = await person("gone@optik.example");
    await post(admin, { action: "deactivate", email: gone.email });
    const invitations = `/companies/${OPTICIAN}/invitations`;
    const patch = async (userId: string, role: string): Promise<ApiCall> => [
      "PATCH",
      `/users/${userId}`,
      { body: { role }, headers: { "if-match": await etagOf(client, userId) } },
    ];
    const lastAdmin = rule("last_admin", "the company's last administrator cannot give up that role");
    const cases: [string, Record<string, string>, ApiCall, { code: string; message: string } | "absent"][] = [
      [
        "a bad email",
        { action: "invite", email: "no-domain@", role: "user" },
        ["POST", invitations, { body: { email: "no-domain@", role: "user" } }],
        ruleOf(() => parseEmail("no-domain@")),
      ],
      [
        "an unknown role",
        { action: "invite", email: "ok@optik.example", role: "boss" },
        ["POST", invitations, { body: { email: "ok@optik.example", role: "boss" } }],
        ruleOf(() => parseRole("boss")),
      ],
      [
        "a role the company kind has not",
        { action: "invite", email: "ok@optik.example", role: "developer" },
        ["POST", invitations, { body: { email: "ok@optik.example", role: "developer" } }],
        ruleOf(() => checkRoleFits("developer", "eye_care_professional")),
      ],
      [
        "an unknown language",
        { action: "invite", email: "ok@optik.example", language: "xx" },
        ["POST", invitations, { body: { email: "ok@optik.example", language: "xx" } }],
        ruleOf(() => parseLanguage("xx")),
      ],
      [
        "the last administrator's demotion",
        { action: "role", email: "optician@demo.test", role: "user" },
        await patch(opticianId, "user"),
        lastAdmin,
      ],
      [
        "the last administrator's deactivation",
        { action: "deactivate", email: "optician@demo.test" },
        ["POST", `/users/${opticianId}/deactivate`],
        lastAdmin,
      ],
      [
        "a member made developer",
        { action: "role", email: member.email, role: "developer" },
        await patch(member.id, "developer"),
        ruleOf(() => checkRoleFits("developer", "eye_care_professional")),
      ],
      [
        "unlocking a person with a second factor",
        { action: "unlock", email: guarded.email },
        ["POST", `/users/${guarded.id}/unlock`],
        rule("second_factor_lock", "the person has a second factor"),
      ],
      [
        "undoing the operator's deactivation",
        { action: "activate", email: benched.email },
        ["POST", `/users/${benched.id}/reactivate`],
        rule("operator_decision", `an operator deactivated "${benched.email}": only an operator can undo it`),
      ],
      [
        "deactivating someone deactivated",
        { action: "deactivate", email: gone.email },
        ["POST", `/users/${gone.id}/deactivate`],
        rule("invalid_state", `user "${gone.email}" is deactivated already`),
      ],
      [
        "deactivating a user of another company",
        { action: "deactivate", email: "supplier@demo.test" },
        ["POST", `/users/${supplierId}/deactivate`],
        "absent",
      ],
      [
        "activating a user of another company",
        { action: "activate", email: "supplier@demo.test" },
        ["POST", `/users/${supplierId}/reactivate`],
        "absent",
      ],
      [
        "unlocking a user of another company",
        { action: "unlock", email: "supplier@demo.test" },
        ["POST", `/users/${supplierId}/unlock`],
        "absent",
      ],
      [
        "a role for a user of another company",
        { action: "role", email: "supplier@demo.test", role: "admin" },
        ["PATCH", `/users/${supplierId}`, { body: { role: "admin" }, headers: { "if-match": '"any"' } }],
        "absent",
      ],
      [
        "revoking an invitation there is not",
        { action: "revoke", email: "nobody@optik.example" },
        ["DELETE", `${invitations}/no-such-invitation`],
        "absent",
      ],
      [
        "sending again an invitation there is not",
        { action: "resend", email: "supplier@demo.test" },
        ["POST", `${invitations}/no-such-invitation/resend`],
        "absent",
      ],
    ];
    for (const [what, form, [method, path, options], refusal] of cases) {
      const before = await written();
      const page = await post(admin, form);
      const api = await manage(method, path, { token: client, ...options });
      if (refusal === "absent") {
        expect(page?.problem, what).toBe("not_in_company");
        expect(api.response.status, what).toBe(404);
      } else {
        expect(page?.problem, what).toBe(refusal.code);
        expect([api.response.status, api.body.detail], what).toEqual([
          refusal.code === "invalid_state" ? 409 : 422,
          refusal.message,
        ]);
      }
      expect(await written(), what).toEqual(before);
    }
  });

  it("refuse another company by name, send nothing past the throttle, and tell nobody of taken addresses", async () => {
    const before = await written();
    const other = await post(admin, { action: "invite", email: "ok@optik.example", company_id: "demo-company-lens" });
    expect(other?.problem).toBe("other_company");
    const api = await manage("POST", "/companies/demo-company-lens/invitations", {
      token: client,
      body: { email: "ok@optik.example" },
    });
    expect([api.response.status, api.body.type]).toEqual([403, "urn:optigate:problem:forbidden"]);

    // An address that is someone's account elsewhere: both answer as for any address, and invite nobody.
    expect(await post(admin, { action: "invite", email: "supplier@demo.test" })).toEqual({
      action: "invite",
      email: "supplier@demo.test",
    });
    const taken = await manage("POST", `/companies/${OPTICIAN}/invitations`, {
      token: client,
      body: { email: "supplier@demo.test" },
    });
    expect([taken.response.status, taken.body.resent]).toEqual([202, false]);
    expect(await written()).toEqual(before);

    // The company's hourly allowance of invitations holds for both.
    const key = `invite-company:${OPTICIAN}`;
    await db().loginThrottle.upsert({
      where: { key },
      create: { key, failures: 50, windowStartedAt: new Date() },
      update: { failures: 50, windowStartedAt: new Date() },
    });
    const throttled = await written();
    expect((await post(admin, { action: "invite", email: "late@optik.example" }))?.problem).toBe("throttled");
    const late = await manage("POST", `/companies/${OPTICIAN}/invitations`, {
      token: client,
      body: { email: "late@optik.example" },
    });
    expect([late.response.status, late.body.detail]).toEqual([422, "too many invitations sent: try later"]);
    expect(await written()).toEqual(throttled);
    await db().loginThrottle.deleteMany({ where: { key } });
  });

  it("hold the operator's page and client to the operator's rules alike", async () => {
    const operator = await signedInAgent("admin@demo.test", "Admin#2026");
    const platform = (await managementToken(prismaStores(db()), ["manage.users.read", "manage.users.write"])).token;
    const before = await written();
    const form = { action: "invite", email: "supplier@demo.test", company_id: OPTICIAN };
    expect((await post(operator, form))?.problem).toBe("already_user");
    const api = await manage("POST", `/companies/${OPTICIAN}/invitations`, {
      token: platform,
      body: { email: "supplier@demo.test" },
    });
    expect([api.response.status, api.body.detail]).toEqual([409, "supplier@demo.test is already a user"]);
    expect(await written()).toEqual(before);

    // The operator may take a company's last administrator's role, on the page and through the API.
    for (const id of ["parity-page", "parity-api"])
      await prismaStores(db()).companies.insert(id, { name: id, kind: "eye_care_professional", webServices: [] });
    const [byPage, byApi] = [
      await person("chief@parity-page.example", "parity-page", "admin"),
      await person("chief@parity-api.example", "parity-api", "admin"),
    ];
    expect(
      (await post(operator, { action: "role", email: byPage.email, role: "user", company_id: "parity-page" }))?.problem,
    ).toBeUndefined();
    const demoted = await manage("PATCH", `/users/${byApi.id}`, {
      token: platform,
      body: { role: "user" },
      headers: { "if-match": await etagOf(platform, byApi.id) },
    });
    expect(demoted.response.status).toBe(200);
    const roles = await db().user.findMany({ where: { id: { in: [byPage.id, byApi.id] } }, select: { role: true } });
    expect(roles).toEqual([{ role: "user" }, { role: "user" }]);
  });

  it("accept the same valid input with the same effect", async () => {
    const [pageMember, apiMember] = [
      await person("page-member@optik.example"),
      await person("api-member@optik.example"),
    ];
    /** What a page or API action changes of a person (the link differs by nature, and only a person is an inviter). */
    const state = async (email: string) => {
      const user = await db().user.findUnique({ where: { email }, select: { role: true, active: true } });
      const invitation = await db().invitation.findUnique({
        where: { email },
        select: { role: true, language: true, companyId: true },
      });
      const throttle = await db().loginThrottle.findUnique({ where: { key: accountThrottleKey(email) } });
      const mail = await db().outboxMessage.count({ where: { recipient: email, status: "queued" } });
      return { user, invitation, locked: Boolean(throttle?.lockedUntil), mail };
    };
    const same = async (what: string, page: string, api: string) => {
      const ofPage = await state(page);
      expect(await state(api), what).toEqual(ofPage);
      return ofPage;
    };
    const linkOf = async (email: string) => (await db().invitation.findUniqueOrThrow({ where: { email } })).tokenHash;
    const invitations = `/companies/${OPTICIAN}/invitations`;

    expect(
      await post(admin, { action: "invite", email: "page-new@optik.example", role: "admin", language: "it" }),
    ).toEqual({ action: "invite", email: "page-new@optik.example" });
    const invited = await manage("POST", invitations, {
      token: client,
      body: { email: "api-new@optik.example", role: "admin", language: "it" },
    });
    expect(invited.response.status).toBe(202);
    const first = await same("invite", "page-new@optik.example", "api-new@optik.example");
    expect(first.invitation).toMatchObject({ role: "admin", language: "it", companyId: OPTICIAN });
    expect(first.mail).toBe(1);

    const apiInvitation = await db().invitation.findUniqueOrThrow({ where: { email: "api-new@optik.example" } });
    const pageInvitation = await db().invitation.findUniqueOrThrow({ where: { email: "page-new@optik.example" } });
    expect((await post(admin, { action: "resend", email: "page-new@optik.example" }))?.problem).toBeUndefined();
    expect((await manage("POST", `${invitations}/${apiInvitation.id}/resend`, { token: client })).response.status).toBe(
      200,
    );
    await same("resend", "page-new@optik.example", "api-new@optik.example");
    expect(await linkOf("page-new@optik.example")).not.toBe(pageInvitation.tokenHash);
    expect(await linkOf("api-new@optik.example")).not.toBe(apiInvitation.tokenHash);

    expect((await post(admin, { action: "revoke", email: "page-new@optik.example" }))?.problem).toBeUndefined();
    expect((await manage("DELETE", `${invitations}/${apiInvitation.id}`, { token: client })).response.status).toBe(204);
    expect((await same("revoke", "page-new@optik.example", "api-new@optik.example")).invitation).toBeNull();

    expect((await post(admin, { action: "role", email: pageMember.email, role: "admin" }))?.problem).toBeUndefined();
    const promoted = await manage("PATCH", `/users/${apiMember.id}`, {
      token: client,
      body: { role: "admin" },
      headers: { "if-match": await etagOf(client, apiMember.id) },
    });
    expect(promoted.response.status).toBe(200);
    expect((await same("role", pageMember.email, apiMember.email)).user).toEqual({ role: "admin", active: true });

    expect((await post(admin, { action: "deactivate", email: pageMember.email }))?.problem).toBeUndefined();
    expect((await manage("POST", `/users/${apiMember.id}/deactivate`, { token: client })).response.status).toBe(200);
    expect((await same("deactivate", pageMember.email, apiMember.email)).user).toEqual({
      role: "admin",
      active: false,
    });

    expect((await post(admin, { action: "activate", email: pageMember.email }))?.problem).toBeUndefined();
    expect((await manage("POST", `/users/${apiMember.id}/reactivate`, { token: client })).response.status).toBe(200);
    expect((await same("activate", pageMember.email, apiMember.email)).user).toEqual({ role: "admin", active: true });

    await lock(pageMember.email);
    await lock(apiMember.email);
    expect((await post(admin, { action: "unlock", email: pageMember.email }))?.problem).toBeUndefined();
    expect((await manage("POST", `/users/${apiMember.id}/unlock`, { token: client })).response.status).toBe(200);
    expect((await same("unlock", pageMember.email, apiMember.email)).locked).toBe(false);
    expect(pageInvitation.invitedByUserId).toBe(await idOf("optician@demo.test"));
  });
});
