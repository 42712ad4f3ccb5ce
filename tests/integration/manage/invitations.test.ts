/**
 * /manage/v1/companies/{companyId}/invitations: an ERP creates a company and invites its staff (the mail reaches the
 * outbox, the names wait on the invitation page), lists, reads, sends again and revokes invitations; a company's own
 * client does so for its company alone, and learns nothing of addresses outside it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { readInvitationLink } from "@/lib/admin/invitation-acceptance";
import { invitePerson } from "@/lib/admin/invitations";
import { prismaStores } from "@/lib/store/stores";
import { ISSUER, SECRET_KEY, useOAuthService } from "../../helpers/oauth-service";
import { manage, managementToken } from "../../helpers/manage-api";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const db = () => service().database.db;
const stores = () => prismaStores(db());
const OPTICIAN = "demo-company-optician";

let erp: { clientId: string; token: string };
let reader: string;
let company: { clientId: string; token: string };

beforeAll(async () => {
  const scopes = ["manage.companies.read", "manage.companies.write", "manage.users.read", "manage.users.write"];
  erp = await managementToken(stores(), scopes);
  reader = (await managementToken(stores(), ["manage.users.read"])).token;
  company = await managementToken(stores(), ["manage.company.users.read", "manage.company.users.write"], OPTICIAN);
});

const written = async () => ({
  invitations: await db().invitation.findMany({ orderBy: { email: "asc" } }),
  mail: await db().outboxMessage.findMany({ orderBy: { id: "asc" }, select: { id: true, recipient: true } }),
});

describe(`the management API's invitations on ${testProvider()}`, () => {
  it("creates a company and invites its staff: the mail is in the outbox, the names on the invitation page", async () => {
    const shop = await manage("POST", "/companies", {
      token: erp.token,
      body: { id: "erp-shop", kind: "eye_care_professional", name: "Optik am Markt", country: "DE" },
    });
    expect(shop.response.status).toBe(201);
    const sent = await manage("POST", "/companies/erp-shop/invitations", {
      token: erp.token,
      body: {
        email: "Anna@Optik-Markt.example",
        role: "admin",
        language: "de",
        given_name: "Anna",
        family_name: "Ott",
      },
    });
    expect(sent.response.status).toBe(202);
    expect(sent.body).toEqual({
      email: "anna@optik-markt.example",
      company: "erp-shop",
      role: "admin",
      language: "de",
      given_name: "Anna",
      family_name: "Ott",
      resent: false,
    });
    const mail = await db().outboxMessage.findMany({ where: { recipient: "anna@optik-markt.example" } });
    expect(mail.map((message) => [message.kind, message.language])).toEqual([["invitation", "de"]]);

    const listed = await manage("GET", "/companies/erp-shop/invitations", { token: reader });
    expect(listed.body).toEqual({
      items: [
        {
          id: expect.any(String),
          email: "anna@optik-markt.example",
          company: "erp-shop",
          role: "admin",
          language: "de",
          given_name: "Anna",
          family_name: "Ott",
          status: "pending",
          created_at: expect.any(String),
          expires_at: expect.any(String),
        },
      ],
      next: null,
    });
    const id = listed.body.items[0].id;
    const one = await manage("GET", `/companies/erp-shop/invitations/${id}`, { token: reader });
    expect(one.body).toEqual(listed.body.items[0]);
    expect(one.response.headers.get("etag")).toMatch(/^"/);
    const invited = await db().invitation.findUniqueOrThrow({ where: { id } });
    expect(invited.invitedByUserId).toBeNull();
    const event = await db().auditEvent.findFirstOrThrow({ where: { type: "user.invited", byClientId: erp.clientId } });
    expect(JSON.parse(event.details)).toMatchObject({ username: "anna@optik-markt.example", companyId: "erp-shop" });

    const stored = await stores().invitations.listPending({ id });
    expect(stored[0]).toMatchObject({ givenName: "Anna", familyName: "Ott" });
    const byEmail = await manage("GET", "/companies/erp-shop/invitations?email=ANNA%40optik-markt.example", {
      token: reader,
    });
    expect(byEmail.body.items.map((item: { id: string }) => item.id)).toEqual([id]);
  });

  it("offers the inviter's names with the invitation's link, and only those given", async () => {
    const issued = await invitePerson(
      { stores: stores(), config: { publicUrl: ISSUER, secretKey: SECRET_KEY } },
      { email: "named@optik.example", companyId: OPTICIAN, role: "user", language: "de", givenName: "Nina" },
    );
    const token = new URL(issued.invitation_url).searchParams.get("token")!;
    expect(await readInvitationLink(stores(), token)).toMatchObject({ state: "open", givenName: "Nina" });
    expect(await readInvitationLink(stores(), token)).not.toHaveProperty("familyName");
  });

  it("sends an invitation again under the same id with a new link, and revokes it", async () => {
    const first = await manage("POST", `/companies/${OPTICIAN}/invitations`, {
      token: company.token,
      body: { email: "twice@optik.example" },
    });
    expect(first.body).toMatchObject({ resent: false, role: "user", language: "en", given_name: null });
    const before = await db().invitation.findUniqueOrThrow({ where: { email: "twice@optik.example" } });
    const again = await manage("POST", `/companies/${OPTICIAN}/invitations`, {
      token: company.token,
      body: { email: "twice@optik.example", language: "fr" },
    });
    expect(again.body).toMatchObject({ resent: true, language: "fr" });
    const replaced = await db().invitation.findUniqueOrThrow({ where: { email: "twice@optik.example" } });
    expect(replaced.id).toBe(before.id);
    expect(replaced.tokenHash).not.toBe(before.tokenHash);

    const resent = await manage("POST", `/companies/${OPTICIAN}/invitations/${before.id}/resend`, {
      token: company.token,
    });
    expect(resent.response.status).toBe(200);
    expect(resent.body).toMatchObject({ id: before.id, email: "twice@optik.example", language: "fr" });
    const third = await db().invitation.findUniqueOrThrow({ where: { email: "twice@optik.example" } });
    expect(third.tokenHash).not.toBe(replaced.tokenHash);
    // The earlier mails, not sent yet, went with their links: one waits.
    expect(await db().outboxMessage.count({ where: { recipient: "twice@optik.example", status: "queued" } })).toBe(1);

    const revoked = await manage("DELETE", `/companies/${OPTICIAN}/invitations/${before.id}`, { token: company.token });
    expect(revoked.response.status).toBe(204);
    expect(await db().invitation.count({ where: { email: "twice@optik.example" } })).toBe(0);
    expect(await db().outboxMessage.count({ where: { recipient: "twice@optik.example", status: "queued" } })).toBe(0);
    for (const [method, path] of [
      ["GET", `/companies/${OPTICIAN}/invitations/${before.id}`],
      ["POST", `/companies/${OPTICIAN}/invitations/${before.id}/resend`],
      ["DELETE", `/companies/${OPTICIAN}/invitations/${before.id}`],
    ] as const)
      expect((await manage(method, path, { token: company.token })).response.status, `${method} ${path}`).toBe(404);
  });

  it("forbids a company's client another company's invitations on every route, changing nothing", async () => {
    await manage("POST", "/companies/demo-company-lens/invitations", {
      token: erp.token,
      body: { email: "lens-staff@lens.example" },
    });
    const lensInvitation = await db().invitation.findUniqueOrThrow({ where: { email: "lens-staff@lens.example" } });
    const before = await written();
    const other = "/companies/demo-company-lens/invitations";
    const calls: [Parameters<typeof manage>[0], string, unknown?][] = [
      ["GET", other],
      ["POST", other, { email: "sneaky@lens.example" }],
      ["GET", `${other}/${lensInvitation.id}`],
      ["POST", `${other}/${lensInvitation.id}/resend`],
      ["DELETE", `${other}/${lensInvitation.id}`],
    ];
    for (const [method, path, body] of calls) {
      const { response, body: problem } = await manage(method, path, { token: company.token, body });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(problem.type).toBe("urn:optigate:problem:forbidden");
    }
    // Named under its own company, another company's invitation is nobody's.
    const own = `/companies/${OPTICIAN}/invitations/${lensInvitation.id}`;
    for (const [method, path] of [
      ["GET", own],
      ["POST", `${own}/resend`],
      ["DELETE", own],
    ] as const)
      expect((await manage(method, path, { token: company.token })).response.status, `${method} ${path}`).toBe(404);
    expect(await written()).toEqual(before);
  });

  it("answers a company's client about an address outside the company as about any, and tells the operator's", async () => {
    const before = await written();
    for (const email of ["supplier@demo.test", "lens-staff@lens.example"]) {
      const { response, body } = await manage("POST", `/companies/${OPTICIAN}/invitations`, {
        token: company.token,
        body: { email },
      });
      expect([response.status, body.resent], email).toEqual([202, false]);
    }
    expect(await written()).toEqual(before);
    const told = await manage("POST", `/companies/${OPTICIAN}/invitations`, {
      token: erp.token,
      body: { email: "supplier@demo.test" },
    });
    expect(told.response.status).toBe(409);
    expect(told.body.detail).toBe("supplier@demo.test is already a user");
    const elsewhere = await manage("POST", `/companies/${OPTICIAN}/invitations`, {
      token: erp.token,
      body: { email: "lens-staff@lens.example" },
    });
    expect(elsewhere.response.status).toBe(409);
    expect(await written()).toEqual(before);
  });

  it("refuses bad input, unknown and deactivated companies, and missing scopes, writing nothing", async () => {
    const before = await written();
    const path = `/companies/${OPTICIAN}/invitations`;
    const cases: [string, Parameters<typeof manage>[2], number][] = [
      ["no email", { body: { role: "user" } }, 400],
      ["email not a string", { body: { email: 5 } }, 400],
      ["unknown member", { body: { email: "ok@optik.example", colour: "red" } }, 400],
      ["not JSON", { body: "{" }, 400],
      ["not an object", { body: "[]" }, 400],
      ["wrong media type", { body: "email=x", headers: { "content-type": "text/plain" } }, 415],
      ["bad email", { body: { email: "no-domain@" } }, 422],
      ["long email", { body: { email: `${"x".repeat(300)}@optik.example` } }, 422],
      ["unknown role", { body: { email: "ok@optik.example", role: "boss" } }, 422],
      ["developer at an optician", { body: { email: "ok@optik.example", role: "developer" } }, 422],
      ["unknown language", { body: { email: "ok@optik.example", language: "xx" } }, 422],
      ["empty name", { body: { email: "ok@optik.example", given_name: " " } }, 422],
      ["long name", { body: { email: "ok@optik.example", family_name: "x".repeat(101) } }, 422],
    ];
    for (const [what, options, status] of cases) {
      const { response } = await manage("POST", path, { token: company.token, ...options });
      expect(response.status, what).toBe(status);
    }
    const unknown = await manage("POST", "/companies/nobody-here/invitations", {
      token: erp.token,
      body: { email: "ok@optik.example" },
    });
    expect(unknown.response.status).toBe(404);
    expect((await manage("POST", "/companies/demo-company-frames/deactivate", { token: erp.token })).body.active).toBe(
      false,
    );
    const inactive = await manage("POST", "/companies/demo-company-frames/invitations", {
      token: erp.token,
      body: { email: "ok@frames.example" },
    });
    expect(inactive.response.status).toBe(422);
    expect(inactive.body.detail).toBe('company "demo-company-frames" is deactivated');
    await manage("POST", "/companies/demo-company-frames/activate", { token: erp.token });

    const readOnly = await manage("POST", path, { token: reader, body: { email: "ok@optik.example" } });
    expect(readOnly.response.status).toBe(403);
    expect(readOnly.body.type).toBe("urn:optigate:problem:insufficient-scope");
    expect((await manage("GET", `${path}?colour=red`, { token: reader })).response.status).toBe(400);
    expect((await manage("GET", `${path}?email=${"x".repeat(300)}`, { token: reader })).response.status).toBe(400);
    expect((await manage("PUT", path, { token: erp.token })).response.status).toBe(405);
    expect(await written()).toEqual(before);
  });

  it("limits the invitations a company's client sends in an hour", async () => {
    await db().loginThrottle.upsert({
      where: { key: `invite-inviter:client:${company.clientId}` },
      create: { key: `invite-inviter:client:${company.clientId}`, failures: 20, windowStartedAt: new Date() },
      update: { failures: 20, windowStartedAt: new Date() },
    });
    const before = await written();
    const refused = await manage("POST", `/companies/${OPTICIAN}/invitations`, {
      token: company.token,
      body: { email: "one-too-many@optik.example" },
    });
    expect(refused.response.status).toBe(422);
    expect(refused.body.detail).toBe("too many invitations sent: try later");
    expect(await written()).toEqual(before);
    await db().loginThrottle.deleteMany({ where: { key: `invite-inviter:client:${company.clientId}` } });
  });
});
