/**
 * The signed-in user's own account: changing the password (the current one checked under the sign-in
 * throttle, the other sessions ended, a notice mailed), a new email address (confirmed through a link to it, the old
 * one notified, checked again on confirmation, the claims following), the sessions the security page lists and ends,
 * and `users password` on the command line.
 */
import { decodeJwt } from "jose";
import { prismaStores } from "@/lib/store/stores";
import { describe, expect, it } from "vitest";
import { hashPassword } from "@/lib/crypto/password";
import { readAccountLink } from "@/lib/account/account-links";
import { LINK_PAGES } from "@/lib/http/link-token-cookies";
import { openMailBody } from "@/lib/mail/outbox";
import { ownSessions } from "@/lib/rights/own-account";
import { actorOfSessionCookie } from "@/lib/rights/actor";
import { getServiceContext } from "@/lib/service-context";
import { findActiveSession } from "@/lib/session/login-session";
import { SESSION_COOKIE } from "@/lib/session/session-cookie";
import { forgetClient } from "@/lib/store/client-store";
import { runAdmin } from "../../helpers/admin-cli";
import { call, ISSUER, SECRET_KEY, signedInAgent, UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { userTokens } from "../../helpers/platform-api";
import { testProvider } from "../../helpers/test-database";
import polish from "@/messages/pl.json";

const service = useOAuthService();
const db = () => service().database.db;
const OLD = "the old passphrase 1";
const NEW = "wolkenkratzer gleitsicht bahnhof";

let counter = 0;
async function newUser(preferredLanguage?: string) {
  const email = `own-${++counter}@example.com`;
  await db().user.create({
    data: {
      email,
      preferredLanguage,
      givenName: "Olga",
      familyName: "Owner",
      companyId: "demo-company-optician",
      passwordHash: await hashPassword(OLD),
    },
  });
  return email;
}

const act = (agent: UserAgent, form: Record<string, string>) => agent.post("account", "/interaction/account", form);
const changePassword = (agent: UserAgent, current: string, next: string) =>
  act(agent, { action: "change-password", current_password: current, new_password: next });
const isSignedIn = async (agent: UserAgent) =>
  (await actorOfSessionCookie(getServiceContext(), agent.cookies.get(SESSION_COOKIE))).kind === "user";
const mailTo = (recipient: string) =>
  db().outboxMessage.findMany({ where: { recipient }, orderBy: { createdAt: "asc" } });

describe(`a user's own password on ${testProvider()}`, () => {
  it("changes it with the current one, ends the other sessions, keeps this one, notifies and audits", async () => {
    const email = await newUser();
    const [here, there] = [await signedInAgent(email, OLD), await signedInAgent(email, OLD)];
    const response = await changePassword(here, OLD, NEW);
    expect(response.headers.get("location")).toBe("/portal/profile?done=password");
    expect(await isSignedIn(here)).toBe(true);
    expect(await isSignedIn(there)).toBe(false);
    expect((await new UserAgent().login("/", email, NEW)).headers.get("location")).toBe("/");
    const [notice] = await mailTo(email);
    expect(notice).toMatchObject({ kind: "password_changed", subject: "Your OptiGate password was changed" });
    const user = await db().user.findUniqueOrThrow({ where: { email } });
    expect(await db().auditEvent.count({ where: { userId: user.id, type: "user.password_changed" } })).toBe(1);
  });

  it("ends the applications' refresh tokens and the tickets with the other sessions, unless the box is unticked", async () => {
    const email = await newUser();
    const here = await signedInAgent(email, OLD);
    const { refresh_token } = await userTokens(email, OLD, "openid offline_access", await signedInAgent(email, OLD));
    await changePassword(here, OLD, NEW);
    const user = await db().user.findUniqueOrThrow({ where: { email } });
    const token = await db().refreshToken.findFirstOrThrow({ where: { userId: user.id } });
    expect(token.revokedAt).not.toBeNull();
    expect(refresh_token).toBeTruthy();

    const kept = await newUser();
    const [mine, other] = [await signedInAgent(kept, OLD), await signedInAgent(kept, OLD)];
    await userTokens(kept, OLD, "openid offline_access", other);
    const response = await act(mine, {
      action: "change-password",
      current_password: OLD,
      new_password: NEW,
      sign_out_elsewhere: "no",
    });
    expect(response.headers.get("location")).toBe("/portal/profile?done=password-kept");
    expect(await isSignedIn(other)).toBe(true);
    const keptUser = await db().user.findUniqueOrThrow({ where: { email: kept } });
    expect(await db().refreshToken.count({ where: { userId: keptUser.id, revokedAt: null } })).toBe(1);
  });

  it("writes the notice in the user's preferred language, whichever of the seven it is", async () => {
    const email = await newUser("pl");
    await changePassword(await signedInAgent(email, OLD), OLD, NEW);
    const [notice] = await mailTo(email);
    expect(notice).toMatchObject({ kind: "password_changed", subject: polish.Mail.account.passwordChanged.subject });
  });

  it("refuses a wrong current password under the sign-in throttle, and a weak new one with its reason", async () => {
    const email = await newUser();
    const agent = await signedInAgent(email, OLD);
    expect((await changePassword(agent, "not my password", NEW)).headers.get("location")).toBe(
      "/portal/profile?form=password&error=wrong_current_password",
    );
    for (const [weak, problem] of [
      ["Password1234", "password_too_guessable"],
      ["olgaowner2026", "password_too_guessable"],
      ["kurz", "password_too_short"],
    ])
      expect((await changePassword(agent, OLD, weak)).headers.get("location")).toBe(
        `/portal/profile?form=password&error=${problem}`,
      );
    for (let attempt = 0; attempt < 4; attempt++) await changePassword(agent, "still wrong", NEW);
    expect((await changePassword(agent, OLD, NEW)).headers.get("location")).toMatch(
      /^\/portal\/profile\?form=password&error=throttled&minutes=\d+$/,
    );
    expect((await new UserAgent().login("/", email, OLD)).headers.get("location")).toMatch(/throttled/);
  });

  it("sends nobody who is not signed in anywhere, and refuses a form without its token", async () => {
    const anonymous = await act(new UserAgent(), {
      action: "change-password",
      current_password: OLD,
      new_password: NEW,
    });
    expect(anonymous.headers.get("location")).toBe("/login?returnUrl=%2Fportal%2Fprofile");
    const agent = await signedInAgent(await newUser(), OLD);
    const stale = await act(agent, {
      action: "change-password",
      csrf_token: "x",
      current_password: OLD,
      new_password: NEW,
    });
    expect(stale.headers.get("location")).toBe("/portal/profile?error=form_expired");
    expect((await act(agent, { action: "make-me-admin" })).status).toBe(400);
  });

  it("sets a password from the command line under the same policy, reading it from standard input", async () => {
    const email = await newUser();
    const agent = await signedInAgent(email, OLD);
    const weak = await runAdmin(db(), ["users", "password", email], { input: "Password1234\n" });
    expect(weak.code).toBe(1);
    expect(weak.stderr).toMatch(/too easy to guess.*close to a commonly used password/);
    const missing = await runAdmin(db(), ["users", "password", "nobody@example.com"], { input: `${NEW}\n` });
    expect(missing.stderr).toMatch(/no user "nobody@example.com"/);
    const done = await runAdmin(db(), ["users", "password", email], { input: `${NEW}\n` });
    expect(JSON.parse(done.stdout)).toEqual({ email, status: "password_set", ended_sessions: 1 });
    expect(done.announced).toHaveLength(1);
    expect(await isSignedIn(agent)).toBe(false);
    expect((await new UserAgent().login("/", email, NEW)).headers.get("location")).toBe("/");
  });
});

describe(`a user's own email address on ${testProvider()}`, () => {
  const confirm = (token: string, agent = new UserAgent()) => {
    agent.cookies.set(LINK_PAGES["/email/confirm"], token);
    return agent.post("email", "/interaction/email", {});
  };
  async function requestedToken(newEmail: string, agent: UserAgent) {
    const response = await act(agent, { action: "change-email", new_email: newEmail });
    expect(response.headers.get("location")).toBe("/portal/profile?done=email");
    const [mail] = await mailTo(newEmail.toLowerCase());
    return new URL(
      openMailBody(SECRET_KEY, mail.sealedBody!).text.match(/https?:\/\/\S+\/email\/confirm\?\S+/)![0],
    ).searchParams.get("token")!;
  }

  it("changes only when the link is used; then it is verified, and the claims follow", async () => {
    const email = await newUser();
    const agent = await signedInAgent(email, OLD);
    const token = await requestedToken("Olga.New@Example.com", agent);
    const [notice] = await mailTo(email);
    expect(notice).toMatchObject({ kind: "email_change_notice" });
    expect(openMailBody(SECRET_KEY, notice.sealedBody!).text).toContain("olga.new@example.com");
    expect(await db().user.findUnique({ where: { email } })).not.toBeNull();
    const response = await confirm(token);
    expect(response.headers.get("location")).toBe("/email/confirm?done=1");
    const user = await db().user.findUniqueOrThrow({ where: { email: "olga.new@example.com" } });
    expect(user.emailVerified).toBe(true);
    expect((await confirm(token)).headers.get("location")).toBe("/email/confirm?closed=used");
    const tokens = await userTokens("olga.new@example.com", OLD, "openid email");
    const userinfo = await call(
      "userinfo",
      new Request(`${ISSUER}/connect/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } }),
    );
    expect(await userinfo.json()).toMatchObject({ email: "olga.new@example.com", email_verified: true });
    expect((await new UserAgent().login("/", email, OLD)).headers.get("location")).toMatch(/invalid_credentials/);
  });

  it("cuts off the old mailbox: its reset link closes, and the other sessions end but the confirming one", async () => {
    const email = await newUser();
    const [agent, elsewhere] = [await signedInAgent(email, OLD), await signedInAgent(email, OLD)];
    const user = await db().user.findUniqueOrThrow({ where: { email } });
    const resetToken = "r".repeat(43);
    await prismaStores(db()).accountLinks.save(
      resetToken,
      {
        userId: user.id,
        purpose: "password_reset",
        sentTo: email,
        expiresAt: new Date(Date.now() + 3_600_000),
      },
      { mail: [], event: { type: "user.password_reset", userId: user.id, details: { step: "link_sent" } } },
      new Date(),
    );
    expect((await readAccountLink(prismaStores(db()).accountLinks, resetToken, "password_reset")).state).toBe("open");
    const response = await confirm(await requestedToken("olga.relocated@example.com", agent), agent);
    expect(response.headers.get("location")).toBe("/email/confirm?done=1");
    expect((await readAccountLink(prismaStores(db()).accountLinks, resetToken, "password_reset")).state).toBe(
      "unknown",
    );
    expect(await isSignedIn(agent)).toBe(true);
    expect(await isSignedIn(elsewhere)).toBe(false);
  });

  it("puts the new address in the ID tokens of clients that take their claims there", async () => {
    const agent = await signedInAgent(await newUser(), OLD);
    await confirm(await requestedToken("olga.id@example.com", agent));
    await db().client.update({ where: { id: "demo-web" }, data: { idTokenClaims: true } });
    forgetClient("demo-web");
    try {
      const { id_token } = await userTokens("olga.id@example.com", OLD, "openid email");
      expect(decodeJwt(id_token!)).toMatchObject({ email: "olga.id@example.com", email_verified: true });
    } finally {
      await db().client.update({ where: { id: "demo-web" }, data: { idTokenClaims: false } });
      forgetClient("demo-web");
    }
  });

  it("lasts 24 hours: a link older than that says so and changes nothing", async () => {
    const email = await newUser();
    const agent = await signedInAgent(email, OLD);
    const asked = Date.now();
    const token = await requestedToken("olga.later@example.com", agent);
    const link = await db().accountLink.findFirstOrThrow({ where: { newEmail: "olga.later@example.com" } });
    expect(link.expiresAt.getTime() - asked).toBeGreaterThanOrEqual(24 * 3_600_000 - 1_000);
    expect(link.expiresAt.getTime() - asked).toBeLessThanOrEqual(24 * 3_600_000 + 5_000);
    await db().accountLink.update({ where: { id: link.id }, data: { expiresAt: new Date(Date.now() - 1) } });
    expect((await confirm(token)).headers.get("location")).toBe("/email/confirm?closed=expired");
    expect(await db().user.findUnique({ where: { email } })).not.toBeNull();
  });

  it("asks for the current password when the sign-in is older than five minutes", async () => {
    const email = await newUser();
    const agent = await signedInAgent(email, OLD);
    await db().loginSession.updateMany({
      where: { user: { email } },
      data: { authTime: new Date(Date.now() - 6 * 60_000) },
    });
    const ask = async (form: Record<string, string>) =>
      (await act(agent, { action: "change-email", new_email: "olga.stale@example.com", ...form })).headers.get(
        "location",
      );
    expect(await ask({})).toBe("/portal/profile?form=email&error=password_needed");
    expect(await ask({ current_password: "not the password" })).toBe(
      "/portal/profile?form=email&error=wrong_current_password",
    );
    expect(await mailTo("olga.stale@example.com")).toEqual([]);
    expect(await ask({ current_password: OLD })).toBe("/portal/profile?done=email");
    expect(await mailTo("olga.stale@example.com")).toHaveLength(1);
  });

  it("never tells whether an address has an account: the new address is told instead, and no link works", async () => {
    const email = await newUser();
    const agent = await signedInAgent(email, OLD);
    const answer = async (newEmail: string) =>
      (await act(agent, { action: "change-email", new_email: newEmail })).headers.get("location");
    expect(await answer(email.toUpperCase())).toBe("/portal/profile?form=email&error=same_email");
    expect(await answer("not an address")).toBe("/portal/profile?form=email&error=invalid_email");
    for (const taken of ["supplier@demo.test", "colleague@demo.test"]) {
      expect(await answer(taken)).toBe("/portal/profile?done=email");
      const [told] = await mailTo(taken).then((mail) => mail.filter((message) => message.kind !== "invitation"));
      expect(told).toMatchObject({ kind: "email_in_use" });
      expect(openMailBody(SECRET_KEY, told.sealedBody!).text).not.toMatch(/email\/confirm/);
    }
    expect(await answer("free-address@example.com")).toBe("/portal/profile?done=email");
    expect(await answer("another-free@example.com")).toBe("/portal/profile?done=email");
    expect(await answer("a-third-free@example.com")).toBe("/portal/profile?done=email");
    expect(await answer("one-too-many@example.com")).toMatch(
      /^\/portal\/profile\?form=email&error=throttled_email&minutes=\d+$/,
    );
    expect(await db().user.findUnique({ where: { email } })).not.toBeNull();
  });

  it("refuses a confirmation when the address became another account's before the link was used", async () => {
    const email = await newUser();
    const agent = await signedInAgent(email, OLD);
    const token = await requestedToken("soon-taken@example.com", agent);
    await db().user.create({
      data: {
        email: "soon-taken@example.com",
        givenName: "S",
        familyName: "T",
        companyId: "demo-company-optician",
        passwordHash: "x",
      },
    });
    expect((await confirm(token)).headers.get("location")).toBe("/email/confirm?closed=email_taken");
    expect(await db().user.findUnique({ where: { email } })).not.toBeNull();
  });

  it("refuses a confirmation when the address was invited meanwhile: the invitation keeps it", async () => {
    const email = await newUser();
    const agent = await signedInAgent(email, OLD);
    const token = await requestedToken("soon-invited@example.com", agent);
    const invite = ["users", "invite", "soon-invited@example.com", "--company", "demo-company-frames"];
    expect((await runAdmin(db(), invite)).code).toBe(0);
    expect((await confirm(token)).headers.get("location")).toBe("/email/confirm?closed=email_taken");
    expect(await db().user.findUnique({ where: { email } })).not.toBeNull();
  });

  it("is cancelled by a new password, so a change asked for with a stolen session cannot be finished", async () => {
    const email = await newUser();
    const agent = await signedInAgent(email, OLD);
    const token = await requestedToken("thief@example.com", agent);
    expect((await changePassword(agent, OLD, NEW)).headers.get("location")).toBe("/portal/profile?done=password");
    expect((await confirm(token)).headers.get("location")).toBe("/email/confirm?closed=unknown");
    expect(await db().user.findUnique({ where: { email } })).not.toBeNull();
  });

  it("leaves nothing of the old or the asked-for address when the user is removed", async () => {
    const email = await newUser();
    const agent = await signedInAgent(email, OLD);
    await confirm(await requestedToken("moved@example.com", agent), agent);
    await requestedToken("asked-for@example.com", agent);
    const user = await db().user.findUniqueOrThrow({ where: { email: "moved@example.com" } });
    expect((await runAdmin(db(), ["users", "remove", "moved@example.com"])).code).toBe(0);
    for (const address of [email, "moved@example.com", "asked-for@example.com"]) {
      expect(await db().outboxMessage.count({ where: { recipient: address } }), address).toBe(0);
      expect(await db().auditEvent.count({ where: { details: { contains: address } } }), address).toBe(0);
    }
    expect(
      await db().auditEvent.count({ where: { details: { contains: `removed-user:${user.id}` } } }),
    ).toBeGreaterThan(0);
  });

  it("honours only the newest link, and refuses expired and tampered ones", async () => {
    const agent = await signedInAgent(await newUser(), OLD);
    const first = await requestedToken("first@example.com", agent);
    const second = await requestedToken("second@example.com", agent);
    expect((await confirm(first)).headers.get("location")).toBe("/email/confirm?closed=unknown");
    expect((await confirm(`${second.slice(0, 20)}`)).headers.get("location")).toBe("/email/confirm?closed=unknown");
    await db().accountLink.updateMany({ where: { newEmail: "second@example.com" }, data: { expiresAt: new Date(0) } });
    expect((await confirm(second)).headers.get("location")).toBe("/email/confirm?closed=expired");
  });
});

describe(`a user's own sessions on ${testProvider()}`, () => {
  const firefox = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

  it("lists them with browser and address, ends one, then all others, never another user's", async () => {
    const email = await newUser();
    const here = await signedInAgent(email, OLD);
    const browser = new UserAgent("en", "192.0.2.44", firefox);
    await browser.login("/", email, OLD);
    const third = await signedInAgent(email, OLD);
    const actor = await actorOfSessionCookie(getServiceContext(), here.cookies.get(SESSION_COOKIE));
    const sessions = await ownSessions(actor);
    expect(sessions).toHaveLength(3);
    expect(sessions.filter((session) => session.current)).toHaveLength(1);
    expect(sessions).toContainEqual(
      expect.objectContaining({ browser: "Firefox 133 · Windows", ipAddress: "192.0.2.44" }),
    );
    const firefoxSession = sessions.find((session) => session.browser?.startsWith("Firefox"))!;
    const other = await signedInAgent(await newUser(), OLD);
    expect((await act(other, { action: "end-session", session_id: firefoxSession.id })).headers.get("location")).toBe(
      "/portal/security?error=not_found",
    );
    expect(await isSignedIn(browser)).toBe(true);
    expect((await act(here, { action: "end-session", session_id: firefoxSession.id })).headers.get("location")).toBe(
      "/portal/security?ended=1",
    );
    expect(await isSignedIn(browser)).toBe(false);
    const current = sessions.find((session) => session.current)!;
    expect((await act(here, { action: "end-session", session_id: current.id })).headers.get("location")).toBe(
      "/portal/security?error=not_found",
    );
    expect((await act(here, { action: "end-other-sessions" })).headers.get("location")).toBe(
      "/portal/security?ended=1",
    );
    expect([await isSignedIn(here), await isSignedIn(third)]).toEqual([true, false]);
  });

  it("shows when each began and was last used, writing the last use at most once a minute", async () => {
    const before = Date.now();
    const agent = await signedInAgent(await newUser(), OLD);
    const cookie = agent.cookies.get(SESSION_COOKIE);
    const actor = await actorOfSessionCookie(getServiceContext(), cookie);
    const [listed] = await ownSessions(actor);
    expect(listed.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1_000);
    expect(listed.lastSeenAt.getTime()).toBe(listed.createdAt.getTime());
    const lastSeen = async () => (await ownSessions(actor))[0].lastSeenAt.getTime();
    const soon = new Date(listed.createdAt.getTime() + 30_000);
    expect(await findActiveSession(prismaStores(db()).loginSessions, cookie, soon)).not.toBeNull();
    expect(await lastSeen()).toBe(listed.createdAt.getTime());
    const later = new Date(listed.createdAt.getTime() + 5 * 60_000);
    expect(await findActiveSession(prismaStores(db()).loginSessions, cookie, later)).not.toBeNull();
    expect(await lastSeen()).toBe(later.getTime());
    expect((await ownSessions(actor))[0].createdAt).toEqual(listed.createdAt);
  });
});
