/**
 * /manage/v1/users and a company's people: search by email and by name, one user, deactivate, reactivate, unlock,
 * role changes, erasing and second-factor resets, by an operator's client (any company; erasing and resets are its
 * alone) and a company's own client (its company alone: another company's user is not found, whatever the route, and
 * another company's id forbidden).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { UserRegistryError } from "@/lib/admin/user-registry";
import { AccessDenied, actorOfSessionCookie, type Actor } from "@/lib/rights/actor";
import { erasePersonById } from "@/lib/rights/people-directory";
import { getServiceContext } from "@/lib/service-context";
import { SESSION_COOKIE } from "@/lib/session/session-cookie";
import { prismaStores } from "@/lib/store/stores";
import { accountThrottleKey } from "@/lib/store/throttle-store";
import { signedInAgent, useOAuthService } from "../../helpers/oauth-service";
import { manage, managementToken } from "../../helpers/manage-api";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const db = () => service().database.db;
const stores = () => prismaStores(db());
const OPTICIAN = "demo-company-optician";
const PASSWORD = "Optician#2026";

let operatorReader: string;
let operator: { clientId: string; token: string };
let company: { clientId: string; token: string };
let companyReader: string;

beforeAll(async () => {
  operatorReader = (await managementToken(stores(), ["manage.users.read"])).token;
  operator = await managementToken(stores(), ["manage.users.read", "manage.users.write"]);
  company = await managementToken(stores(), ["manage.company.users.read", "manage.company.users.write"], OPTICIAN);
  companyReader = (await managementToken(stores(), ["manage.company.users.read"], OPTICIAN)).token;
});

/** A new user of the company, who can sign in with the optician's password. */
async function newUser(email: string, companyId = OPTICIAN, names = { givenName: "Hanna", familyName: "Hilfe" }) {
  const { passwordHash } = await db().user.findUniqueOrThrow({ where: { email: "optician@demo.test" } });
  return db().user.create({ data: { email, companyId, passwordHash, ...names } });
}

const idOf = async (email: string) => (await db().user.findUniqueOrThrow({ where: { email } })).id;
const emailsOf = (body: { items: { email: string }[] }) => body.items.map((item) => item.email);

describe(`the management API's users on ${testProvider()}`, () => {
  it("finds a user by email in any case, and by words of the email and names", async () => {
    await newUser("anna.schmidt@erp-shop.example", OPTICIAN, { givenName: "Anna", familyName: "Schmidt" });
    await newUser("bernd@lens.example", "demo-company-lens", { givenName: "Bernd", familyName: "Schmidt" });
    const exact = await manage("GET", "/users?email=Anna.Schmidt%40ERP-Shop.example", { token: operatorReader });
    expect(exact.response.status).toBe(200);
    expect(exact.body).toEqual({
      items: [
        expect.objectContaining({
          id: await idOf("anna.schmidt@erp-shop.example"),
          email: "anna.schmidt@erp-shop.example",
          company: OPTICIAN,
          role: "user",
          status: "active",
          given_name: "Anna",
          family_name: "Schmidt",
        }),
      ],
      next: null,
    });
    expect(emailsOf((await manage("GET", "/users?email=anna", { token: operatorReader })).body)).toEqual([]);
    const byName = await manage("GET", "/users?q=SCHMIDT", { token: operatorReader });
    expect(emailsOf(byName.body)).toEqual(["anna.schmidt@erp-shop.example", "bernd@lens.example"]);
    expect(emailsOf((await manage("GET", "/users?q=anna%20schmidt", { token: operatorReader })).body)).toEqual([
      "anna.schmidt@erp-shop.example",
    ]);
    const inLens = await manage("GET", "/users?q=schmidt&companyId=demo-company-lens", { token: operatorReader });
    expect(emailsOf(inLens.body)).toEqual(["bernd@lens.example"]);

    // A company's client finds its own people only, and may not name another company.
    expect(emailsOf((await manage("GET", "/users?q=schmidt", { token: companyReader })).body)).toEqual([
      "anna.schmidt@erp-shop.example",
    ]);
    expect(emailsOf((await manage("GET", "/users?email=bernd@lens.example", { token: companyReader })).body)).toEqual(
      [],
    );
    const elsewhere = await manage("GET", "/users?companyId=demo-company-lens", { token: companyReader });
    expect(elsewhere.response.status).toBe(403);
    expect(elsewhere.body.type).toBe("urn:optigate:problem:forbidden");
  });

  it("pages through the users by email with a cursor that holds its filters", async () => {
    const seen: string[] = [];
    let next: string | null = null;
    do {
      const cursor: string = next ? `&cursor=${encodeURIComponent(next)}` : "";
      const page = await manage("GET", `/users?limit=2${cursor}`, { token: operatorReader });
      expect(page.response.status).toBe(200);
      seen.push(...emailsOf(page.body));
      next = page.body.next;
    } while (next);
    expect(seen).toEqual([...seen].sort());
    expect(seen).toEqual((await db().user.findMany({ orderBy: { email: "asc" } })).map((user) => user.email));

    const first = await manage("GET", "/users?limit=1", { token: operatorReader });
    const other = await manage("GET", `/users?q=demo&cursor=${encodeURIComponent(first.body.next)}`, {
      token: operatorReader,
    });
    expect(other.response.status).toBe(400);
  });

  it("shows one user to the operator's client, and to a company's client only its own", async () => {
    const supplierId = await idOf("supplier@demo.test");
    const opticianId = await idOf("optician@demo.test");
    const one = await manage("GET", `/users/${supplierId}`, { token: operatorReader });
    expect(one.response.status).toBe(200);
    expect(one.body).toMatchObject({ id: supplierId, email: "supplier@demo.test", company: "demo-company-lens" });
    expect(one.response.headers.get("etag")).toMatch(/^"/);
    expect((await manage("GET", `/users/${opticianId}`, { token: companyReader })).body.email).toBe(
      "optician@demo.test",
    );
    // Another company's user answers as an id that is nobody's.
    const hidden = await manage("GET", `/users/${supplierId}`, { token: companyReader });
    const nobody = await manage("GET", "/users/no-such-user", { token: companyReader });
    expect([hidden.response.status, nobody.response.status]).toEqual([404, 404]);
    expect(hidden.body.detail.replace(supplierId, "x")).toBe(nobody.body.detail.replace("no-such-user", "x"));
  });

  it("refuses a company's client every route on another company's user, changing nothing", async () => {
    const supplierId = await idOf("supplier@demo.test");
    const before = await db().user.findUniqueOrThrow({ where: { id: supplierId } });
    const etag = (await manage("GET", `/users/${supplierId}`, { token: operatorReader })).response.headers.get("etag")!;
    const calls: [Parameters<typeof manage>[0], string, object?][] = [
      ["GET", `/users/${supplierId}`],
      ["PATCH", `/users/${supplierId}`, { body: { role: "admin" }, headers: { "if-match": etag } }],
      ["POST", `/users/${supplierId}/deactivate`],
      ["POST", `/users/${supplierId}/reactivate`],
      ["POST", `/users/${supplierId}/unlock`],
    ];
    for (const [method, path, options] of calls) {
      const { response } = await manage(method, path, { token: company.token, ...options });
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    // Erasing and resetting second factors are the operator's client's alone: refused by scope, whoever the user is.
    for (const [method, path] of [
      ["POST", `/users/${supplierId}/second-factor-reset`],
      ["DELETE", `/users/${supplierId}`],
    ] as const) {
      const refused = await manage(method, path, { token: company.token });
      expect([refused.response.status, refused.body.type], `${method} ${path}`).toEqual([
        403,
        "urn:optigate:problem:insufficient-scope",
      ]);
    }
    expect(await db().user.findUniqueOrThrow({ where: { id: supplierId } })).toEqual(before);
  });

  it("deactivates a user, signed out everywhere, and reactivates them; each audited as the client", async () => {
    const user = await newUser("leaving@erp-shop.example");
    await signedInAgent(user.email, PASSWORD);
    expect(await db().loginSession.count({ where: { userId: user.id, endedAt: null } })).toBe(1);
    const off = await manage("POST", `/users/${user.id}/deactivate`, { token: company.token });
    expect(off.response.status).toBe(200);
    expect(off.body).toMatchObject({ id: user.id, status: "deactivated" });
    expect(await db().loginSession.count({ where: { userId: user.id, endedAt: null } })).toBe(0);
    await expect(signedInAgent(user.email, PASSWORD)).rejects.toThrow(/could not sign in/);
    expect((await manage("POST", `/users/${user.id}/deactivate`, { token: company.token })).response.status).toBe(409);
    const on = await manage("POST", `/users/${user.id}/reactivate`, { token: company.token });
    expect(on.body.status).toBe("active");
    await signedInAgent(user.email, PASSWORD);
    const mine = await db().auditEvent.findMany({
      where: { byClientId: company.clientId, type: { in: ["user.deactivated", "user.activated"] } },
    });
    // The client, which has no account, is named instead of a person.
    expect(mine.map((event) => [event.type, event.userId]).sort()).toEqual([
      ["user.activated", null],
      ["user.deactivated", null],
    ]);

    // The operator's deactivation is the operator's to undo.
    await manage("POST", `/users/${user.id}/deactivate`, { token: operator.token });
    const refused = await manage("POST", `/users/${user.id}/reactivate`, { token: company.token });
    expect(refused.response.status).toBe(422);
    expect(refused.body.detail).toContain("only an operator can undo it");
    expect((await manage("POST", `/users/${user.id}/reactivate`, { token: operator.token })).body.status).toBe(
      "active",
    );
  });

  it("keeps the company's last administrator, but for the operator's client", async () => {
    await stores().companies.insert("erp-last-admin", {
      name: "Letzte Optik",
      kind: "eye_care_professional",
      webServices: [],
    });
    const chief = await newUser("chief@last-admin.example", "erp-last-admin");
    await db().user.update({ where: { id: chief.id }, data: { role: "admin" } });
    const own = await managementToken(stores(), ["manage.company.users.write"], "erp-last-admin");
    const etag = (await manage("GET", `/users/${chief.id}`, { token: operatorReader })).response.headers.get("etag")!;
    const attempts: [Parameters<typeof manage>[0], string, object?][] = [
      ["POST", `/users/${chief.id}/deactivate`],
      ["PATCH", `/users/${chief.id}`, { body: { role: "user" }, headers: { "if-match": etag } }],
    ];
    for (const [method, path, options] of attempts) {
      const { response, body } = await manage(method, path, { token: own.token, ...options });
      expect(response.status, `${method} ${path}`).toBe(422);
      expect(body.detail).toBe("the company's last administrator cannot give up that role");
    }
    expect((await manage("DELETE", `/users/${chief.id}`, { token: own.token })).response.status).toBe(403);
    expect(await db().user.findUniqueOrThrow({ where: { id: chief.id } })).toMatchObject({
      role: "admin",
      active: true,
    });
    const demoted = await manage("PATCH", `/users/${chief.id}`, {
      token: operator.token,
      body: { role: "user" },
      headers: { "if-match": etag },
    });
    expect(demoted.response.status).toBe(200);
    expect(demoted.body.role).toBe("user");
  });

  it("changes a role with If-Match, by the company kind's roles", async () => {
    const user = await newUser("promoted@erp-shop.example");
    const read = await manage("GET", `/users/${user.id}`, { token: companyReader });
    const etag = read.response.headers.get("etag")!;
    const path = `/users/${user.id}`;
    expect((await manage("PATCH", path, { token: company.token, body: { role: "admin" } })).response.status).toBe(428);
    const stale = await manage("PATCH", path, {
      token: company.token,
      body: { role: "admin" },
      headers: { "if-match": '"stale"' },
    });
    expect(stale.response.status).toBe(412);
    const developer = await manage("PATCH", path, {
      token: company.token,
      body: { role: "developer" },
      headers: { "if-match": etag },
    });
    expect(developer.response.status).toBe(422);
    expect(developer.body.detail).toBe("the role developer is for software vendors' staff only");
    for (const body of [{ role: 5 }, { role: "admin", colour: "red" }, {}]) {
      const bad = await manage("PATCH", path, { token: company.token, body, headers: { "if-match": etag } });
      expect(bad.response.status, JSON.stringify(body)).toBe(400);
    }
    const changed = await manage("PATCH", path, {
      token: company.token,
      body: { role: "admin" },
      headers: { "if-match": etag },
    });
    expect(changed.body).toMatchObject({ id: user.id, role: "admin" });
    expect(changed.response.headers.get("etag")).not.toBe(etag);
  });

  it("lifts a lock-out, but leaves one with a second factor to the operator", async () => {
    const user = await newUser("locked@erp-shop.example");
    const lock = () =>
      db().loginThrottle.upsert({
        where: { key: accountThrottleKey(user.email) },
        create: {
          key: accountThrottleKey(user.email),
          failures: 5,
          windowStartedAt: new Date(),
          lockedUntil: new Date(Date.now() + 600_000),
        },
        update: { lockedUntil: new Date(Date.now() + 600_000) },
      });
    await lock();
    expect((await manage("GET", `/users/${user.id}`, { token: companyReader })).body.status).toBe("locked");
    expect((await manage("POST", `/users/${user.id}/unlock`, { token: company.token })).body.status).toBe("active");
    await signedInAgent(user.email, PASSWORD);

    await lock();
    await db().totpFactor.create({ data: { userId: user.id, sealedSecret: "sealed", confirmedAt: new Date() } });
    const refused = await manage("POST", `/users/${user.id}/unlock`, { token: company.token });
    expect(refused.response.status).toBe(422);
    expect(refused.body.detail).toBe("the person has a second factor");
    expect((await manage("POST", `/users/${user.id}/unlock`, { token: operator.token })).body.status).toBe("active");
  });

  it("erases a user for good, for the operator's client alone, leaving a pseudonym in the audit trail", async () => {
    const user = await newUser("erased@erp-shop.example");
    await signedInAgent(user.email, PASSWORD);
    const own = await manage("DELETE", `/users/${user.id}`, { token: company.token });
    expect([own.response.status, own.body.type]).toEqual([403, "urn:optigate:problem:insufficient-scope"]);
    expect(await db().user.findUnique({ where: { id: user.id } })).not.toBeNull();
    const erased = await manage("DELETE", `/users/${user.id}`, { token: operator.token });
    expect(erased.response.status).toBe(204);
    expect(await db().user.findUnique({ where: { id: user.id } })).toBeNull();
    expect(await db().loginSession.count({ where: { userId: user.id } })).toBe(0);
    expect(await db().auditEvent.count({ where: { details: { contains: user.email } } })).toBe(0);
    expect(
      await db().auditEvent.count({ where: { details: { contains: `removed-user:${user.id}` } } }),
    ).toBeGreaterThan(0);
    expect((await manage("GET", `/users/${user.id}`, { token: operatorReader })).response.status).toBe(404);
    expect((await manage("DELETE", `/users/${user.id}`, { token: operator.token })).response.status).toBe(404);
  });

  it("leaves erasing a person an operator deactivated to the operator; a company's client erases no one", async () => {
    const benched = await newUser("benched@erp-shop.example");
    const left = await newUser("left@erp-shop.example");
    await manage("POST", `/users/${benched.id}/deactivate`, { token: operator.token });
    await manage("POST", `/users/${left.id}/deactivate`, { token: company.token });
    const admin = await signedInAgent("optician@demo.test", PASSWORD);
    const companyAdmin = await actorOfSessionCookie(getServiceContext(), admin.cookies.get(SESSION_COOKIE));
    const refused = await erasePersonById(companyAdmin, benched.id).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UserRegistryError);
    expect(refused).toMatchObject({ code: "operator_decision" });
    // Past the route's scopes, the rights function refuses a company's client too.
    const ownClient: Actor = {
      kind: "manager",
      context: getServiceContext(),
      clientId: company.clientId,
      scopes: new Set(["manage.company.users.write"]),
      company: (await stores().companies.find(OPTICIAN))!,
    };
    await expect(erasePersonById(ownClient, left.id)).rejects.toBeInstanceOf(AccessDenied);
    const both = { where: { id: { in: [benched.id, left.id] } } };
    expect(await db().user.count(both)).toBe(2);

    // The administrator's own deactivation stays theirs to carry through; the operator's client erases either.
    await erasePersonById(companyAdmin, left.id);
    expect((await manage("DELETE", `/users/${benched.id}`, { token: operator.token })).response.status).toBe(204);
    expect(await db().user.count(both)).toBe(0);
  });

  it("resets a user's second factors for the operator's client and mails them a notice", async () => {
    const user = await newUser("lost-phone@erp-shop.example");
    await db().totpFactor.create({ data: { userId: user.id, sealedSecret: "sealed", confirmedAt: new Date() } });
    const reset = await manage("POST", `/users/${user.id}/second-factor-reset`, { token: operator.token });
    expect(reset.response.status).toBe(200);
    expect(reset.body).toEqual({ user_id: user.id, removed: 1 });
    expect(await db().totpFactor.count({ where: { userId: user.id } })).toBe(0);
    expect(await db().outboxMessage.count({ where: { recipient: user.email, kind: "second_factors_reset" } })).toBe(1);
    const again = await manage("POST", `/users/${user.id}/second-factor-reset`, { token: operator.token });
    expect(again.body.removed).toBe(0);
    const reader = await manage("POST", `/users/${user.id}/second-factor-reset`, { token: operatorReader });
    expect(reader.response.status).toBe(403);
    expect((await manage("POST", "/users/nobody/second-factor-reset", { token: operator.token })).response.status).toBe(
      404,
    );
  });

  it("lists a company's people as its page shows them, with ids, for its own client only", async () => {
    const people = await manage("GET", `/companies/${OPTICIAN}/users?limit=200`, { token: companyReader });
    expect(people.response.status).toBe(200);
    const optician = people.body.items.find((person: { email: string }) => person.email === "optician@demo.test");
    expect(optician).toMatchObject({ user_id: await idOf("optician@demo.test"), invitation_id: null, role: "admin" });
    const invited = people.body.items.find((person: { email: string }) => person.email === "colleague@demo.test");
    const invitation = await db().invitation.findUniqueOrThrow({ where: { email: "colleague@demo.test" } });
    expect(invited).toMatchObject({ user_id: null, invitation_id: invitation.id, status: "invited" });
    expect(people.body.items.every((person: { company: string }) => person.company === OPTICIAN)).toBe(true);

    const paged = await manage("GET", `/companies/${OPTICIAN}/users?limit=1`, { token: operatorReader });
    expect(paged.body.items).toHaveLength(1);
    const rest = await manage("GET", `/companies/${OPTICIAN}/users?cursor=${encodeURIComponent(paged.body.next)}`, {
      token: operatorReader,
    });
    expect([...emailsOf(paged.body), ...emailsOf(rest.body)]).toEqual(emailsOf(people.body));

    const other = await manage("GET", "/companies/demo-company-lens/users", { token: companyReader });
    expect(other.response.status).toBe(403);
    expect(other.body.type).toBe("urn:optigate:problem:forbidden");
    expect((await manage("GET", "/companies/nobody-here/users", { token: operatorReader })).response.status).toBe(404);
  });

  it("answers bad input and missing scopes with problems", async () => {
    const bad = [
      `/users?q=${"x".repeat(201)}`,
      `/users?q=${Array.from({ length: 9 }, (_, index) => `w${index}`).join("%20")}`,
      `/users?email=${"x".repeat(255)}`,
      "/users?colour=red",
      "/users?limit=0",
      "/users?q=a&q=b",
      "/users?cursor=forged",
    ];
    for (const path of bad)
      expect((await manage("GET", path, { token: operatorReader })).response.status, path).toBe(400);
    const userId = await idOf("supplier@demo.test");
    const denied = await manage("POST", `/users/${userId}/deactivate`, { token: operatorReader });
    expect(denied.response.status).toBe(403);
    expect(denied.body.type).toBe("urn:optigate:problem:insufficient-scope");
    const companyRead = await manage("POST", `/users/${userId}/deactivate`, { token: companyReader });
    expect(companyRead.response.status).toBe(403);
    expect((await manage("GET", "/users", { token: company.token })).response.status).toBe(200);
    expect((await manage("PUT", `/users/${userId}`, { token: operator.token })).response.status).toBe(405);
    expect((await manage("GET", `/users/${"x".repeat(300)}`, { token: operatorReader })).response.status).toBe(404);
  });
});
