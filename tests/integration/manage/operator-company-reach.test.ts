/**
 * No management client reaches the operator company's people, invitations, roles, second factors, sign-in or domains,
 * whatever its scopes (lib/rights/operator-company-reach.ts): manage.users.write alone would otherwise invite an admin
 * there (a new operator) or demote, deactivate or erase the last operator, and manage.sso.write would sign people in
 * there through a provider of the client's choosing. Each change is 403 before anything is written; reading the
 * operator company's people stays with manage.users.read. No one deactivates the operator company (409).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { invitePerson } from "@/lib/admin/invitations";
import { prismaStores } from "@/lib/store/stores";
import { ISSUER, SECRET_KEY, signedInAgent, useOAuthService } from "../../helpers/oauth-service";
import { manage, managementToken } from "../../helpers/manage-api";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const db = () => service().database.db;
const stores = () => prismaStores(db());
const OPERATOR_COMPANY = "demo-company-operator";
const OPERATOR = ["admin@demo.test", "Admin#2026"] as const;

let people: string;
let sso: string;
let companies: string;

beforeAll(async () => {
  people = (await managementToken(stores(), ["manage.users.read", "manage.users.write"])).token;
  sso = (await managementToken(stores(), ["manage.sso.read", "manage.sso.write"])).token;
  companies = (await managementToken(stores(), ["manage.companies.read", "manage.companies.write"])).token;
});

/** Everything a refused call might have written: the operator company and its people, mail, sign-in, the trail. */
const written = async () => ({
  company: await db().company.findUniqueOrThrow({ where: { id: OPERATOR_COMPANY } }),
  users: await db().user.findMany({ where: { companyId: OPERATOR_COMPANY }, orderBy: { email: "asc" } }),
  invitations: await db().invitation.findMany({ orderBy: { email: "asc" } }),
  factors: await db().totpFactor.count(),
  sessions: await db().loginSession.count({ where: { endedAt: null } }),
  sso: await db().companySso.findMany(),
  domains: await db().companyDomain.findMany({ orderBy: { domain: "asc" } }),
  mail: await db().outboxMessage.count(),
  audit: await db().auditEvent.count(),
});

const expectForbidden = (call: { response: Response; body: { type: string } }, what: string) =>
  expect([call.response.status, call.body.type], what).toEqual([403, "urn:optigate:problem:forbidden"]);

describe(`the operator company out of every management client's reach on ${testProvider()}`, () => {
  it("refuses manage.users.write every change to the operator company's people, and writes nothing", async () => {
    await signedInAgent(...OPERATOR);
    const operatorId = (await db().user.findUniqueOrThrow({ where: { email: OPERATOR[0] } })).id;
    const context = { stores: stores(), config: { publicUrl: ISSUER, secretKey: SECRET_KEY } };
    const colleague = { email: "ops-colleague@demo.test", companyId: OPERATOR_COMPANY, role: "admin" as const };
    await invitePerson(context, { ...colleague, language: "en" });
    const invitation = await db().invitation.findUniqueOrThrow({ where: { email: "ops-colleague@demo.test" } });
    const invitations = `/companies/${OPERATOR_COMPANY}/invitations`;
    const before = await written();

    // Reading stays: the operator company's people, one of them, its invitations.
    const read = await manage("GET", `/users/${operatorId}`, { token: people });
    expect(read.response.status).toBe(200);
    expect((await manage("GET", `/companies/${OPERATOR_COMPANY}/users`, { token: people })).response.status).toBe(200);
    expect((await manage("GET", invitations, { token: people })).body.items).toHaveLength(1);

    const etag = read.response.headers.get("etag")!;
    const calls: [Parameters<typeof manage>[0], string, object?][] = [
      ["POST", invitations, { body: { email: "attacker@evil.example", role: "admin" } }],
      ["POST", invitations, { body: { email: "ops-colleague@demo.test", role: "admin" } }],
      ["POST", `${invitations}/${invitation.id}/resend`],
      ["DELETE", `${invitations}/${invitation.id}`],
      ["PATCH", `/users/${operatorId}`, { body: { role: "user" }, headers: { "if-match": etag } }],
      ["POST", `/users/${operatorId}/deactivate`],
      ["POST", `/users/${operatorId}/reactivate`],
      ["POST", `/users/${operatorId}/unlock`],
      ["POST", `/users/${operatorId}/second-factor-reset`],
      ["DELETE", `/users/${operatorId}`],
    ];
    for (const [method, path, options] of calls)
      expectForbidden(await manage(method, path, { token: people, ...options }), `${method} ${path}`);
    expect(await written()).toEqual(before);
    await signedInAgent(...OPERATOR);

    // The same client still looks after any other company's people.
    const elsewhere = await manage("POST", "/companies/demo-company-optician/invitations", {
      token: people,
      body: { email: "new-staff@optik.example" },
    });
    expect(elsewhere.response.status).toBe(202);
  });

  it("refuses manage.sso.write the operator company's provider, switches and domains, and writes nothing", async () => {
    const base = `/companies/${OPERATOR_COMPANY}`;
    const provider = {
      issuer: "https://idp.example.com",
      client_id: "optigate",
      client_secret: "upstream-secret-0123456789",
      scope: "openid email profile",
      claims: { groups: "groups", roles: { "ops-admins": "admin" } },
    };
    const before = await written();
    const calls: [Parameters<typeof manage>[0], string, unknown?][] = [
      ["PUT", `${base}/sso`, provider],
      ["POST", `${base}/sso/enable`],
      ["POST", `${base}/sso/disable`],
      ["DELETE", `${base}/sso`],
      ["POST", `${base}/domains`, { domain: "ops.example", verified: true }],
      ["POST", `${base}/domains`, { domain: "ops.example" }],
      ["POST", `${base}/domains/demo.test/verify`],
      ["DELETE", `${base}/domains/demo.test`],
    ];
    for (const [method, path, body] of calls)
      expectForbidden(await manage(method, path, { token: sso, body }), `${method} ${path}`);
    expect(await written()).toEqual(before);
  });

  it("answers deactivating the operator company with 409, for an operator's client as for the pages", async () => {
    const before = await written();
    const refused = await manage("POST", `/companies/${OPERATOR_COMPANY}/deactivate`, { token: companies });
    expect([refused.response.status, refused.body.type]).toEqual([409, "urn:optigate:problem:conflict"]);
    expect(refused.body.detail).toMatch(/is the operator: it cannot be deactivated/);
    expect(await written()).toEqual(before);
    await signedInAgent(...OPERATOR);
  });
});
