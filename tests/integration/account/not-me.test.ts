/**
 * A sign-in notice's "not me" link through the real route handlers, the outbox worker and a real SMTP server: its GET
 * changes nothing (mail scanners open links), its form is CSRF-checked, and its POST ends every session and refresh
 * token of the account, audited, and mails a password reset; a used, expired, unknown or malformed link gets a
 * localized 4xx page, never a change and never a 5xx.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { GET } from "@/app/login/not-me/route";
import { actorOfSessionCookie } from "@/lib/rights/actor";
import { getServiceContext } from "@/lib/service-context";
import { SESSION_COOKIE } from "@/lib/session/session-cookie";
import { CSRF_FIELD } from "@/lib/session/csrf";
import { call, formRequest, ISSUER, UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { freshBrowser, notMeLinkOf, PASSWORD, signIn, useNoticeMail } from "../../helpers/sign-in-notices";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const db = () => service().database.db;
const mail = useNoticeMail(db);
const LINK_COOKIE = "optigate_not_me_link";
const RESET_SUBJECT = "Set a new OptiGate password";

/** An operator's person signed in in two browsers, each told of, with a refresh token and the last one's "not me" link. */
async function disownable(fields: { preferredLanguage?: string } = {}) {
  const company = await db().company.findFirstOrThrow({ where: { kind: "operator" } });
  const person = await mail.newPerson(company.id, fields);
  const browsers = [await signIn(person.email), await signIn(person.email)];
  await db().refreshToken.create({
    data: {
      tokenHash: randomBytes(16).toString("hex"),
      familyId: randomBytes(8).toString("hex"),
      clientId: "demo-web",
      userId: person.id,
      scopes: '["openid"]',
      authTime: new Date(),
      expiresAt: new Date(Date.now() + 3_600_000),
    },
  });
  const notices = await mail.delivered(person.email);
  return { ...person, browsers, link: notMeLinkOf(notices.at(-1)!) };
}

/** What "not me" changes, to compare before and after. */
const stateOf = async (userId: string) => ({
  sessions: await db().loginSession.count({ where: { userId, endedAt: null } }),
  refreshTokens: await db().refreshToken.count({ where: { userId, revokedAt: null } }),
  usedNotices: await db().signInNotice.count({ where: { userId, usedAt: { not: null } } }),
  events: await db().auditEvent.count({ where: { type: "user.sign_in_disowned", userId } }),
  mail: await db().outboxMessage.count({ where: { kind: "password_reset" } }),
});

/** Opens the mailed link in a browser as a person does: the token goes into the page's cookie, then the page. */
async function open(agent: UserAgent, url: URL) {
  const moved = await agent.get("not-me", `${url.pathname}${url.search}`);
  expect(moved.status).toBe(303);
  return { moved, page: await agent.get("not-me", moved.headers.get("location")!) };
}

const confirm = (agent: UserAgent, form: Record<string, string> = {}) =>
  agent.post("not-me", "/login/not-me", { ui_locales: "en", ...form });

describe(`"not me" on ${testProvider()}`, () => {
  it("moves the token out of the address bar and shows the sign-in with a form, changing nothing", async () => {
    const person = await disownable();
    const before = await stateOf(person.id);
    const phone = new UserAgent();
    const { moved, page } = await open(phone, person.link.url);
    expect(moved.headers.get("location")).toBe("/login/not-me?ui_locales=en");
    const cookie = moved.headers.getSetCookie().find((header) => header.startsWith(`${LINK_COOKIE}=`))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toContain(person.link.token);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("cache-control")).toBe("no-store");
    const html = await page.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain("Was this sign-in not you?");
    expect(html).toContain(person.email);
    expect(html).toContain("Browser: Firefox 131 · Linux");
    expect(html).toContain("Network address: 198.51.100.7");
    expect(html).toContain('<form method="post" action="/login/not-me">');
    expect(html).toContain(`name="${CSRF_FIELD}" value="${phone.csrfToken}"`);
    const head = await GET(
      new Request(`${ISSUER}/login/not-me`, {
        method: "HEAD",
        headers: { cookie: `${LINK_COOKIE}=${person.link.token}` },
      }),
    );
    expect(head.status).toBe(200);
    expect(await stateOf(person.id)).toEqual(before);
    for (const browser of person.browsers)
      expect((await actorOfSessionCookie(getServiceContext(), browser.cookies.get(SESSION_COOKIE))).kind).toBe("user");
  });

  it("refuses a form without the page's CSRF token or from another origin, changing nothing", async () => {
    const person = await disownable();
    const before = await stateOf(person.id);
    const phone = new UserAgent();
    await open(phone, person.link.url);
    const forged = await confirm(phone, { [CSRF_FIELD]: "forged" });
    expect(forged.status).toBe(403);
    const html = await forged.text();
    expect(html).toContain("The form had expired");
    expect(html).toContain('<form method="post" action="/login/not-me">');
    const cookies = [...phone.cookies].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("; ");
    const form = { [CSRF_FIELD]: phone.csrfToken, ui_locales: "en" };
    const foreign = await call(
      "not-me",
      formRequest("/login/not-me", form, { cookie: cookies, origin: "https://evil.example" }),
    );
    expect(foreign.status).toBe(403);
    expect(await stateOf(person.id)).toEqual(before);
  });

  it("ends every session and refresh token, audits it, and mails a link to set a new password", async () => {
    const person = await disownable();
    const phone = new UserAgent();
    await open(phone, person.link.url);
    const done = await confirm(phone);
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe("/login/not-me?done=reset&ui_locales=en");
    expect(done.headers.getSetCookie()).toEqual(
      expect.arrayContaining([expect.stringMatching(new RegExp(`^${LINK_COOKIE}=;.*Max-Age=0`))]),
    );
    expect(await stateOf(person.id)).toMatchObject({ sessions: 0, refreshTokens: 0, usedNotices: 1, events: 1 });
    for (const browser of person.browsers)
      expect((await actorOfSessionCookie(getServiceContext(), browser.cookies.get(SESSION_COOKIE))).kind).toBe(
        "anonymous",
      );
    const event = await db().auditEvent.findFirstOrThrow({
      where: { type: "user.sign_in_disowned", userId: person.id },
    });
    expect(event.ipAddress).toBe("198.51.100.7");
    expect(JSON.parse(event.details!)).toMatchObject({ passwordReset: true });
    // The password that signed in no longer does, not even in a browser the account knows.
    const refused = await person.browsers[0].login("/", person.email, PASSWORD);
    expect(new URL(refused.headers.get("location")!, ISSUER).searchParams.get("error")).toBe("invalid_credentials");

    const page = await phone.get("not-me", done.headers.get("location")!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Every sign-in was ended");
    const reset = (await mail.delivered(person.email)).find((received) => !received.subject.includes("New sign-in"))!;
    expect(reset.subject).toBe(RESET_SUBJECT);
    const resetUrl = reset.text.match(/https?:\/\/\S+\/password\/reset\?\S+/)![0];
    expect(await db().accountLink.count({ where: { userId: person.id, purpose: "password_reset" } })).toBe(1);

    // Setting the new password in another new browser signs in there, and that sign-in is told of too.
    const laptop = freshBrowser();
    laptop.cookies.set("optigate_reset_link", new URL(resetUrl).searchParams.get("token")!);
    const signedIn = await laptop.post("reset", "/interaction/password/reset", { password: `${PASSWORD} anew` });
    expect(signedIn.status).toBe(303);
    expect(laptop.cookies.get(SESSION_COOKIE)).toBeDefined();
    expect(await mail.noticesTo(person.email)).toBe(3);
  });

  it("refuses a used, expired, unknown or malformed link with a 4xx page, changing nothing", async () => {
    const person = await disownable();
    const phone = new UserAgent();
    await open(phone, person.link.url);
    expect((await confirm(phone)).status).toBe(303);
    const after = await stateOf(person.id);
    const again = await confirm(withLink(phone, person.link.token));
    expect(again.status).toBe(410);
    expect(await again.text()).toContain("This link was used already");
    expect((await open(new UserAgent(), person.link.url)).page.status).toBe(410);

    const late = await disownable();
    await db().signInNotice.updateMany({
      where: { userId: late.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const expired = (await open(new UserAgent(), late.link.url)).page;
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain("This link has expired");
    expect((await confirm(withLink(new UserAgent(), late.link.token))).status).toBe(410);

    const unknown = (
      await open(new UserAgent(), new URL(`${ISSUER}/login/not-me?token=${randomBytes(32).toString("base64url")}`))
    ).page;
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('href="/password/forgot?ui_locales=en"');
    const malformed = await open(new UserAgent(), new URL(`${ISSUER}/login/not-me?token=%3Cscript%3E`));
    expect(malformed.moved.headers.getSetCookie()[0]).toMatch(new RegExp(`^${LINK_COOKIE}=;.*Max-Age=0`));
    expect(malformed.page.status).toBe(404);
    expect((await confirm(new UserAgent())).status).toBe(404);
    expect(await stateOf(person.id)).toEqual(after);
    expect(await stateOf(late.id)).toMatchObject({ sessions: 2, usedNotices: 0, events: 0 });
  });

  it("closes a link once the account's address changed, as the old mailbox's", async () => {
    const person = await disownable();
    await db().user.update({ where: { id: person.id }, data: { email: `moved-${person.email}` } });
    expect((await open(new UserAgent(), person.link.url)).page.status).toBe(404);
    expect((await confirm(withLink(new UserAgent(), person.link.token))).status).toBe(404);
    expect(await stateOf(person.id)).toMatchObject({ sessions: 2, usedNotices: 0 });
  });

  it("speaks the person's language: the notice, its link and the page", async () => {
    const person = await disownable({ preferredLanguage: "fr" });
    const [notice] = await db().outboxMessage.findMany({ where: { kind: "new_sign_in", recipient: person.email } });
    expect(notice.subject).toBe("Nouvelle connexion à votre compte OptiGate");
    expect(person.link.url.searchParams.get("ui_locales")).toBe("fr");
    const html = await (await open(new UserAgent("en"), person.link.url)).page.text();
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain("Cette connexion n’était pas vous ?");
  });
});

/** The browser with the link's cookie, as if it had opened the link. */
function withLink(agent: UserAgent, token: string): UserAgent {
  agent.cookies.set(LINK_COOKIE, token);
  return agent;
}
