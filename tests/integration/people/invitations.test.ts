/**
 * Inviting people: `users invite`, `users import`, `users remove`, and the invitation page's form. The
 * link carries 256 random bits of which only the hash is stored, the mail waits sealed in the outbox, the person
 * joins once with a verified email, and every refusal writes nothing.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openMailBody } from "@/lib/mail/outbox";
import { INVITATION_FORM_COOKIE } from "@/lib/http/flash-cookies";
import { unsealedCookieValue } from "@/lib/http/sealed-cookie";
import { SESSION_COOKIE } from "@/lib/session/session-cookie";
import { runAdmin } from "../../helpers/admin-cli";
import {
  ISSUER,
  refreshDemoWeb,
  SECRET_KEY,
  signedInAgent,
  UserAgent,
  useOAuthService,
} from "../../helpers/oauth-service";
import { userTokens } from "../../helpers/platform-api";
import { pseudonymOf } from "@/lib/store/person-erasure-store";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const db = () => service().database.db;
const admin = (...args: string[]) => runAdmin(db(), args);
const sha256 = (value: string) => createHash("sha256").update(value).digest("base64url");
const tokenOf = (url: string) => new URL(url).searchParams.get("token")!;
const written = async () => ({
  invitations: await db().invitation.count(),
  mail: await db().outboxMessage.count(),
  users: await db().user.count(),
});

async function invite(email: string, ...options: string[]) {
  const result = await admin("users", "invite", email, "--company", "demo-company-optician", ...options);
  expect(result.stderr).not.toMatch(/error/);
  return JSON.parse(result.stdout) as { invitation_url: string; email: string; role: string; expires_at: string };
}

async function join(token: string, fields: Record<string, string> = {}) {
  const agent = new UserAgent();
  const response = await agent.post("invitation", "/interaction/invitation", {
    token,
    given_name: "Nina",
    family_name: "Neu",
    password: "a long enough passphrase",
    ...fields,
  });
  const refused = unsealedCookieValue<{ problem: string; field?: string; givenName: string }>(
    INVITATION_FORM_COOKIE,
    agent.cookies.get(INVITATION_FORM_COOKIE),
    SECRET_KEY,
  );
  return { agent, response, refused };
}

describe(`invitations on ${testProvider()}`, () => {
  it("prints the link once, stores only its hash, and queues the mail sealed, in the invitation's language", async () => {
    const issued = await invite("Nina.Neu@Example.com", "--role", "admin", "--language", "de");
    expect(issued).toMatchObject({ email: "nina.neu@example.com", role: "admin", language: "de" });
    expect(issued.invitation_url.startsWith(`${ISSUER}/invitation?`)).toBe(true);
    const token = tokenOf(issued.invitation_url);
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    const row = await db().invitation.findUniqueOrThrow({ where: { email: "nina.neu@example.com" } });
    expect(row.tokenHash).toBe(sha256(token));
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(7 * 86_400_000);
    const mail = await db().outboxMessage.findFirstOrThrow({ where: { recipient: "nina.neu@example.com" } });
    expect(mail).toMatchObject({ status: "queued", language: "de", subject: expect.stringMatching(/Einladung/) });
    expect(mail.sealedBody).not.toContain(token);
    const body = openMailBody(SECRET_KEY, mail.sealedBody!);
    expect(body.text).toContain(issued.invitation_url);
    expect(body.html).toContain(issued.invitation_url.replace(/&/g, "&amp;"));
    expect(body.text).toMatch(/Einladung annehmen/);
    const listed = JSON.parse((await admin("users", "list", "--company", "demo-company-optician", "--json")).stdout);
    expect(listed).toContainEqual(expect.objectContaining({ email: "nina.neu@example.com", status: "invited" }));
    expect(await db().auditEvent.count({ where: { type: "user.invited" } })).toBeGreaterThan(0);
  });

  it("refuses bad input with one line and writes nothing", async () => {
    const before = await written();
    const refusals: [string[], RegExp][] = [
      [["users", "invite", `${"a".repeat(250)}@example.com`, "--company", "demo-company-optician"], /longer than 254/],
      [["users", "invite", "nobody@localhost", "--company", "demo-company-optician"], /domain/],
      [["users", "invite", "no-at-sign", "--company", "demo-company-optician"], /no @/],
      [["users", "invite", "bell\u0007@example.com", "--company", "demo-company-optician"], /not an email address/],
      [["users", "invite", "x@example.com", "--company", "demo-company-optician", "--role", "boss"], /no role "boss"/],
      [["users", "invite", "x@example.com", "--company", "demo-company-optician", "--language", "xx"], /no language/],
      [["users", "invite", "x@example.com", "--company", "no-such-company"], /no company "no-such-company"/],
      [["users", "invite", "x@example.com"], /needs --company/],
      [["users", "invite", "optician@demo.test", "--company", "demo-company-optician"], /already a user/],
      [["users", "invite", "x@example.com", "--company", "demo-company-optician", "--colour", "x"], /unknown option/],
      [
        ["users", "invite", "x@example.com", "--company", "demo-company-optician", "--role", "developer"],
        /developer is for software vendors' staff/,
      ],
    ];
    for (const [args, message] of refusals) {
      const result = await admin(...args);
      expect(result.code, args.join(" ")).not.toBe(0);
      expect(result.stdout).toBe("");
      expect(result.stderrLines).toHaveLength(1);
      expect(result.stderr).toMatch(message);
    }
    expect(await written()).toEqual(before);
  });

  it("lets the person join once, signed in with a verified email and the invited role", async () => {
    const issued = await invite("joiner@example.com", "--role", "admin");
    const { agent, response } = await join(tokenOf(issued.invitation_url));
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/portal/applications");
    expect(agent.cookies.get(SESSION_COOKIE)).toBeTruthy();
    const user = await db().user.findUniqueOrThrow({ where: { email: "joiner@example.com" } });
    expect(user).toMatchObject({ emailVerified: true, role: "admin", givenName: "Nina", familyName: "Neu" });
    expect(user.lastSignInAt).not.toBeNull();
    expect(await db().auditEvent.count({ where: { type: "user.joined", userId: user.id } })).toBe(1);
    await signedInAgent("joiner@example.com", "a long enough passphrase");

    const again = await join(tokenOf(issued.invitation_url), { password: "another long passphrase" });
    expect(again.refused?.problem).toBe("used");
    expect(again.agent.cookies.get(SESSION_COOKIE)).toBeUndefined();
    await signedInAgent("joiner@example.com", "a long enough passphrase");
  });

  it("refuses a short or guessable password or an empty name at its field, keeping what was typed, writing nothing", async () => {
    const issued = await invite("careful@example.com");
    const before = await written();
    const short = await join(tokenOf(issued.invitation_url), { password: "short" });
    expect(short.refused).toMatchObject({ problem: "password_too_short", field: "password", givenName: "Nina" });
    for (const guessable of ["Password1234", "passwort12345", "careful.example2026"]) {
      const weak = await join(tokenOf(issued.invitation_url), { password: guessable });
      expect(weak.refused, guessable).toMatchObject({ problem: "password_too_guessable", field: "password" });
    }
    const unnamed = await join(tokenOf(issued.invitation_url), { given_name: "  " });
    expect(unnamed.refused).toMatchObject({ problem: "invalid_name", field: "given_name" });
    const forged = await new UserAgent().post("invitation", "/interaction/invitation", {
      token: tokenOf(issued.invitation_url),
      given_name: "Nina",
      family_name: "Neu",
      password: "a long enough passphrase",
      csrf_token: "forged",
    });
    expect(forged.status).toBe(303);
    expect(await written()).toEqual(before);
  });

  it("closes links that expired, were replaced by sending again, or were revoked", async () => {
    const first = await invite("later@example.com");
    const second = await invite("later@example.com");
    expect((await join(tokenOf(first.invitation_url))).refused?.problem).toBe("unknown");
    expect(await db().invitation.count({ where: { email: "later@example.com" } })).toBe(1);

    await db().invitation.update({
      where: { email: "later@example.com" },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await join(tokenOf(second.invitation_url))).refused?.problem).toBe("expired");

    const third = await invite("later@example.com");
    expect(JSON.parse((await admin("users", "remove", "later@example.com")).stdout)).toEqual({
      email: "later@example.com",
      status: "removed",
    });
    expect((await join(tokenOf(third.invitation_url))).refused?.problem).toBe("unknown");
    expect(await db().user.count({ where: { email: "later@example.com" } })).toBe(0);
    expect((await join("not-a-token!")).refused?.problem).toBe("unknown");
  });
});

describe(`users remove on ${testProvider()}`, () => {
  it("erases the user's personal data, signs them out and keeps the audit trail under a pseudonym", async () => {
    const issued = await invite("leaving@example.com");
    await join(tokenOf(issued.invitation_url), { password: "koffer gepackt abschied" });
    const agent = await signedInAgent("leaving@example.com", "koffer gepackt abschied");
    const tokens = await userTokens("leaving@example.com", "koffer gepackt abschied", "openid offline_access", agent);
    const user = await db().user.findUniqueOrThrow({ where: { email: "leaving@example.com" } });
    const neighbour = await db().auditEvent.create({
      data: { type: "user.invited", details: JSON.stringify({ username: "xleaving@example.com.de" }) },
    });
    for (let attempt = 0; attempt < 2; attempt++) await new UserAgent().login("/", "leaving@example.com", "wrong");
    expect(await db().loginThrottle.count({ where: { key: "account:leaving@example.com" } })).toBe(1);
    const sessions = await db().loginSession.findMany({ where: { userId: user.id, endedAt: null } });

    const removed = await admin("users", "remove", "Leaving@Example.com");
    expect(JSON.parse(removed.stdout)).toEqual({ email: "leaving@example.com", status: "removed" });
    expect(removed.announced.sort()).toEqual(sessions.map((session) => session.id).sort());
    expect(await db().user.count({ where: { id: user.id } })).toBe(0);
    for (const count of [
      db().loginSession.count({ where: { userId: user.id } }),
      db().consent.count({ where: { userId: user.id } }),
      db().refreshToken.count({ where: { userId: user.id } }),
      db().authorizationCode.count({ where: { userId: user.id } }),
      db().invitation.count({ where: { email: "leaving@example.com" } }),
      db().outboxMessage.count({ where: { recipient: "leaving@example.com" } }),
      db().auditEvent.count({ where: { details: { contains: '"leaving@example.com"' } } }),
      db().loginThrottle.count({ where: { key: "account:leaving@example.com" } }),
    ])
      expect(await count).toBe(0);
    expect((await refreshDemoWeb(tokens.refresh_token!)).status).toBe(400);
    const trail = await db().auditEvent.findMany({ where: { details: { contains: pseudonymOf(user.id) } } });
    expect(trail.map((event) => event.type)).toEqual(expect.arrayContaining(["user.invited", "user.joined"]));
    expect(await db().auditEvent.count({ where: { type: "user.removed", details: { contains: user.id } } })).toBe(1);
    expect((await db().auditEvent.findUniqueOrThrow({ where: { id: neighbour.id } })).details).toBe(
      JSON.stringify({ username: "xleaving@example.com.de" }),
    );
    expect((await admin("users", "remove", "leaving@example.com")).stderr).toMatch(/there is no user/);
  });

  it("erases an invited person's invitation, mail and name in the audit trail", async () => {
    await invite("never-joined@example.com");
    expect(JSON.parse((await admin("users", "remove", "never-joined@example.com")).stdout).status).toBe("removed");
    expect(await db().invitation.count({ where: { email: "never-joined@example.com" } })).toBe(0);
    expect(await db().outboxMessage.count({ where: { recipient: "never-joined@example.com" } })).toBe(0);
    expect(await db().auditEvent.count({ where: { details: { contains: "never-joined@example.com" } } })).toBe(0);
    expect(await db().auditEvent.count({ where: { details: { contains: "removed-person:" } } })).toBeGreaterThan(0);
  });
});

describe(`users import on ${testProvider()}`, () => {
  const folder = mkdtempSync(path.join(tmpdir(), "optigate-import-"));
  const file = (name: string, text: string) => {
    const target = path.join(folder, name);
    writeFileSync(target, text);
    return target;
  };

  it("invites every row of a good file, with defaults for empty role and language", async () => {
    const csv = file(
      "good.csv",
      'email,company,role,language\r\nimport1@example.com,demo-company-optician,,\r\n"import2@example.com",demo-company-lens,admin,de\r\n',
    );
    const result = await admin("users", "import", csv);
    expect(JSON.parse(result.stdout)).toEqual({ invited: 2 });
    const rows = await db().invitation.findMany({
      where: { email: { startsWith: "import" } },
      orderBy: { email: "asc" },
    });
    expect(rows.map((row) => [row.email, row.companyId, row.role, row.language])).toEqual([
      ["import1@example.com", "demo-company-optician", "user", "en"],
      ["import2@example.com", "demo-company-lens", "admin", "de"],
    ]);
    expect(await db().outboxMessage.count({ where: { recipient: { startsWith: "import" } } })).toBe(2);
  });

  it("refuses the whole file for one bad row, naming its line", async () => {
    const before = await written();
    const cases: [string, RegExp][] = [
      ["email,company\nx@example.com,demo-company-optician\n", /line 1: the header must be/],
      [
        "email,company,role,language\nok@example.com,demo-company-optician,,\nbad-address,demo-company-optician,,\n",
        /line 3: "bad-address"/,
      ],
      [
        "email,company,role,language\nok@example.com,demo-company-optician,chief,\n",
        /line 2: there is no role "chief"/,
      ],
      ["email,company,role,language\nok@example.com,nowhere,,\n", /line 2: there is no company "nowhere"/],
      ["email,company,role,language\nok@example.com,demo-company-lens,developer,\n", /line 2: the role developer/],
      [
        "email,company,role,language\nok@example.com,demo-company-optician,,\nOK@example.com,demo-company-lens,,\n",
        /line 3: ok@example.com is already on line 2/,
      ],
      [
        "email,company,role,language\nok@example.com,demo-company-optician,,\noptician@demo.test,demo-company-optician,,\n",
        /line 3: optician@demo.test is already a user/,
      ],
      ["email,company,role,language\nok@example.com,demo-company-optician\n", /line 2: has 2 fields/],
      ['email,company,role,language\n"ok@example.com,demo-company-optician,,\n', /line 2: a quoted field/],
      ["email,company,role,language\n", /no rows/],
    ];
    for (const [index, [text, message]] of cases.entries()) {
      const result = await admin("users", "import", file(`bad-${index}.csv`, text));
      expect(result.code, text).toBe(1);
      expect(result.stderr).toMatch(message);
    }
    expect((await admin("users", "import", path.join(folder, "missing.csv"))).stderr).toMatch(/file not found/);
    expect(await written()).toEqual(before);
  });
});
