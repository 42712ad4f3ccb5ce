/**
 * "Forgot password" against the real route handlers, the outbox worker and a real SMTP server: the
 * same answer and the same work for every address, the one-time link (256 bits, hash stored, 60 minutes, newest
 * only), the reset that ends every session and signs in fresh, and every way a link or a request can be bad.
 */
import { createHash } from "node:crypto";
import { prismaStores } from "@/lib/store/stores";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { passwordResetComposer } from "@/lib/account/password-reset";
import { hashPassword } from "@/lib/crypto/password";
import { NO_ADDRESS_RANGES } from "@/lib/config/address-ranges";
import { LINK_PAGES } from "@/lib/http/link-token-cookies";
import { createOutboxWorker, type OutboxWorker } from "@/lib/mail/outbox-worker";
import { smtpSender } from "@/lib/mail/smtp-sender";
import { SESSION_COOKIE } from "@/lib/session/session-cookie";
import { PENDING_SIGN_IN_COOKIE } from "@/lib/session/pending-sign-in";
import {
  basic,
  call,
  callbackParams,
  formRequest,
  interactionOf,
  ISSUER,
  SECRET_KEY,
  signedInAgent,
  UserAgent,
  useOAuthService,
} from "../../helpers/oauth-service";
import { userTokens } from "../../helpers/platform-api";
import { startSmtpSink, type SmtpSink } from "../../helpers/smtp-sink";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const db = () => service().database.db;
const config = {
  publicUrl: ISSUER,
  secretKey: SECRET_KEY,
  passwordMinLength: 12,
  passwordBreach: null,
  production: false,
  outboundAllow: NO_ADDRESS_RANGES,
};
const RESET_COOKIE = LINK_PAGES["/password/reset"];
const NEW_PASSWORD = "morgentau kompass lesebrille";
let smtp: SmtpSink;
let worker: OutboxWorker;

beforeAll(async () => {
  smtp = await startSmtpSink();
  worker = createOutboxWorker({
    outbox: prismaStores(db()).outbox,
    secretKey: SECRET_KEY,
    sender: smtpSender(smtp.url, "OptiGate <no-reply@optigate.test>"),
    composers: { password_reset: passwordResetComposer({ stores: prismaStores(db()), config }) },
  });
});
afterAll(async () => {
  await worker.stop();
  await smtp.close();
});
beforeEach(async () => {
  await db().outboxMessage.deleteMany();
  await db().loginThrottle.deleteMany();
  smtp.received.length = 0;
});

let counter = 0;
async function newUser(options: { active?: boolean } = {}) {
  const email = `reset-${++counter}@example.com`;
  const company = await db().company.findUniqueOrThrow({ where: { id: "demo-company-optician" } });
  const user = await db().user.create({
    data: {
      email,
      givenName: "Rita",
      familyName: "Reset",
      companyId: company.id,
      passwordHash: await hashPassword("the old passphrase 1"),
      active: options.active ?? true,
    },
  });
  return { ...user, password: "the old passphrase 1" };
}

const askFor = (email: string, agent = new UserAgent(), returnUrl?: string) =>
  agent.post("forgot", "/interaction/password/forgot", { email, ...(returnUrl ? { returnUrl } : {}) });

/** Asks for a reset of `email` and delivers the mail; the link's token if a mail arrived. */
async function mailedToken(email: string, asker = new UserAgent(), returnUrl?: string): Promise<string | undefined> {
  await askFor(email, asker, returnUrl);
  await worker.deliverDue();
  const mail = smtp.received.findLast((received) => received.to === email);
  const url = mail?.text.match(/https?:\/\/\S+\/password\/reset\?\S+/)?.[0];
  return url ? new URL(url).searchParams.get("token")! : undefined;
}

async function reset(token: string, password = NEW_PASSWORD, agent = new UserAgent()) {
  agent.cookies.set(RESET_COOKIE, token);
  return { agent, response: await agent.post("reset", "/interaction/password/reset", { password }) };
}

const sha256 = (value: string) => createHash("sha256").update(value).digest("base64url");

describe(`forgot password on ${testProvider()}`, () => {
  it("answers every address the same way, and queues the same deferred row without reading any account", async () => {
    const active = await newUser();
    const inactive = await newUser({ active: false });
    const answers = [];
    for (const email of [active.email, inactive.email, "nobody-here@example.com"]) {
      const response = await askFor(email);
      answers.push({
        status: response.status,
        location: response.headers.get("location"),
        body: await response.text(),
      });
    }
    expect(answers[0]).toEqual({ status: 303, location: "/password/forgot?sent=1", body: "" });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    const rows = await db().outboxMessage.findMany({ orderBy: { createdAt: "asc" } });
    expect(rows.map((row) => [row.kind, row.subject, row.status])).toEqual([
      ["password_reset", "", "queued"],
      ["password_reset", "", "queued"],
      ["password_reset", "", "queued"],
    ]);
    expect(await db().accountLink.count({ where: { userId: { in: [active.id, inactive.id] } } })).toBe(0);
  });

  it("mails a link only to an active account; other requests leave no trace", async () => {
    const active = await newUser();
    const inactive = await newUser({ active: false });
    for (const email of [active.email, inactive.email, "nobody-here@example.com"]) await askFor(email);
    expect(await worker.deliverDue()).toBe(1);
    expect(smtp.received.map((mail) => mail.to)).toEqual([active.email]);
    expect(await db().outboxMessage.findMany({ select: { recipient: true, status: true } })).toEqual([
      { recipient: active.email, status: "sent" },
    ]);
  });

  it("takes the same time for a missing account as for a real one", async () => {
    const real = await newUser();
    const timings: Record<"real" | "missing", number[]> = { real: [], missing: [] };
    for (let round = 0; round < 30; round++) {
      for (const [kind, email] of [
        ["real", real.email],
        ["missing", `missing-${round}@example.com`],
      ] as const) {
        await db().loginThrottle.deleteMany();
        const started = performance.now();
        expect((await askFor(email)).headers.get("location")).toBe("/password/forgot?sent=1");
        timings[kind].push(performance.now() - started);
      }
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const [real50, missing50] = [median(timings.real), median(timings.missing)];
    // The same statements run for both; allow for noise, not for a lookup, a hash or a mail rendered for one only.
    expect(Math.abs(real50 - missing50)).toBeLessThan(Math.max(real50, missing50) * 0.35 + 1);
  });

  it("mails a one-time link of 256 bits in the request's language, storing only its hash, for 60 minutes", async () => {
    const user = await newUser();
    const token = await mailedToken(user.email, new UserAgent("de"));
    expect(token).toBeDefined();
    expect(Buffer.from(token!, "base64url")).toHaveLength(32);
    const mail = smtp.received.at(-1)!;
    expect(mail.subject).toBe("Neues OptiGate-Passwort festlegen");
    expect(mail.text).toContain(`${ISSUER}/password/reset?token=${token}&ui_locales=de`);
    const link = await db().accountLink.findFirstOrThrow({ where: { userId: user.id } });
    expect(link).toMatchObject({ purpose: "password_reset", tokenHash: sha256(token!), usedAt: null });
    expect(link.expiresAt.getTime() - link.createdAt.getTime()).toBe(60 * 60_000);
    const row = await db().outboxMessage.findFirstOrThrow({ where: { recipient: user.email } });
    expect(row).toMatchObject({ status: "sent", sealedBody: null, subject: "Neues OptiGate-Passwort festlegen" });
  });

  it("sets the password, ends every session, signs in fresh, notifies and audits", async () => {
    const user = await newUser();
    const elsewhere = await signedInAgent(user.email, user.password);
    const token = await mailedToken(user.email);
    const { agent, response } = await reset(token!);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/portal/applications");
    expect(agent.cookies.get(SESSION_COOKIE)).toBeTruthy();
    expect(agent.cookies.has(RESET_COOKIE)).toBe(false);
    const sessions = await db().loginSession.findMany({ where: { userId: user.id }, orderBy: { createdAt: "asc" } });
    expect(sessions.map((session) => session.endedAt === null)).toEqual([false, true]);
    expect(
      (await elsewhere.post("portal", "/interaction/portal", { action: "revoke", client_id: "x" })).headers.get(
        "location",
      ),
    ).toMatch(/^\/login/);
    expect((await new UserAgent().login("/", user.email, user.password)).headers.get("location")).toMatch(
      /invalid_credentials/,
    );
    expect((await new UserAgent().login("/", user.email, NEW_PASSWORD)).headers.get("location")).toBe("/");
    await worker.deliverDue();
    expect(smtp.received.at(-1)).toMatchObject({ to: user.email, subject: "Your OptiGate password was reset" });
    expect(smtp.received.at(-1)!.text).toContain(`${ISSUER}/password/forgot?ui_locales=en`);
    const events = await db().auditEvent.findMany({ where: { userId: user.id, type: "user.password_reset" } });
    expect(events.map((event) => JSON.parse(event.details).step).sort()).toEqual(["link_sent", "password_set"]);
  });

  it("ends refresh tokens and catalog tickets too, and the confirmation lists the factors added lately", async () => {
    const user = await newUser();
    const agent = await signedInAgent(user.email, user.password);
    const tokens = await userTokens(user.email, user.password, "openid offline_access platform.catalogs.read", agent);
    // A code minted in the session and kept for later, as someone holding a stolen session would.
    const scope = "openid offline_access platform.catalogs.read";
    let minted = await agent.authorize({
      client_id: "demo-web",
      redirect_uri: "http://localhost:4000/callback",
      response_type: "code",
      scope,
      state: "s",
    });
    if (minted.headers.get("location")!.startsWith("/consent"))
      minted = await agent.consent(interactionOf(minted), "allow", scope.split(" "));
    const keptCode = callbackParams(minted).get("code")!;
    expect(keptCode).toBeTruthy();
    const { POST } = await import("@/app/services/login/SilentLogin/route");
    const silent = await POST(
      formRequest("/services/login/SilentLogin", { username: user.email, password: user.password }),
    );
    expect(silent.status).toBe(200);
    // Planted by whoever held the account: a passkey of three days ago, and an older app outside the 14 days.
    const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000);
    await db().passkey.create({
      data: {
        userId: user.id,
        credentialId: `planted-${user.id}`,
        publicKey: "AAAA",
        deviceType: "singleDevice",
        name: "https://attacker.example/call-us",
        createdAt: threeDaysAgo,
      },
    });
    await db().totpFactor.create({
      data: { userId: user.id, sealedSecret: "sealed", confirmedAt: new Date(Date.now() - 30 * 86_400_000) },
    });
    // Tokens carry whole seconds: the reset comes in a later second than they were issued in.
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
    const token = await mailedToken(user.email);
    await reset(token!);

    const refreshed = await call(
      "token",
      formRequest(
        "/connect/token",
        { grant_type: "refresh_token", refresh_token: tokens.refresh_token! },
        { authorization: basic("demo-web", "demo-web-secret") },
      ),
    );
    expect(refreshed.status).toBe(400);
    expect(await db().ticket.count({ where: { userId: user.id, revokedAt: null } })).toBe(0);
    const redeemed = await call(
      "token",
      formRequest(
        "/connect/token",
        { grant_type: "authorization_code", code: keptCode, redirect_uri: "http://localhost:4000/callback" },
        { authorization: basic("demo-web", "demo-web-secret") },
      ),
    );
    expect([redeemed.status, (await redeemed.json()).error]).toEqual([400, "invalid_grant"]);
    // The access token from before the reset lives its hour, but mints no catalog ticket any more.
    const bearer = await POST(
      formRequest("/services/login/SilentLogin", {}, { authorization: `Bearer ${tokens.access_token}` }),
    );
    expect([bearer.status, (await bearer.json()).error]).toEqual([401, "invalid_token"]);
    await worker.deliverDue();
    const confirmation = smtp.received.findLast((mail) => mail.to === user.email)!;
    expect(confirmation.subject).toBe("Your OptiGate password was reset");
    expect(confirmation.text).toContain("Every sign-in, the access of every application and every catalog ticket");
    const day = new Intl.DateTimeFormat("en", { dateStyle: "long", timeZone: "UTC" });
    expect(confirmation.text).toContain(`a passkey, added on ${day.format(threeDaysAgo)}`);
    expect(confirmation.text).not.toContain("authenticator app");
    // The name someone gave the passkey is not repeated to the owner.
    expect(confirmation.text).not.toContain("attacker.example");
  });

  it("keeps the second factor: a user who has one takes the second step after the new password", async () => {
    const user = await newUser();
    await db().totpFactor.create({
      data: { userId: user.id, sealedSecret: "sealed", confirmedAt: new Date() },
    });
    const token = await mailedToken(user.email);
    const { agent, response } = await reset(token!);
    expect(response.headers.get("location")).toBe("/login/second-factor?returnUrl=%2Fportal%2Fapplications");
    expect(agent.cookies.get(SESSION_COOKIE)).toBeUndefined();
    expect(agent.cookies.get(PENDING_SIGN_IN_COOKIE)).toBeTruthy();
    expect(await db().loginSession.count({ where: { userId: user.id, endedAt: null } })).toBe(0);
  });

  it("leads the browser that asked back to the application's sign-in; nobody else chooses where", async () => {
    const user = await newUser();
    const returnUrl = "/connect/authorize?client_id=demo-web&response_type=code&prompt=login&ui_locales=de";
    const asker = new UserAgent();
    const token = await mailedToken(user.email, asker, returnUrl);
    const { response } = await reset(token!, NEW_PASSWORD, asker);
    expect(response.headers.get("location")).toBe(
      "/connect/authorize?client_id=demo-web&response_type=code&ui_locales=de",
    );
    expect(asker.cookies.has("optigate_reset_return")).toBe(false);
    // Someone else asked for the mail, with a way back of their choosing: the owner's browser goes to the portal.
    const other = await mailedToken(user.email, new UserAgent(), returnUrl);
    expect((await reset(other!, "wolkenkratzer gleitsicht bahnhof")).response.headers.get("location")).toBe(
      "/portal/applications",
    );
    const outside = new UserAgent();
    const third = await mailedToken(user.email, outside, "https://evil.example/steal");
    expect(outside.cookies.has("optigate_reset_return")).toBe(false);
    const location = (await reset(third!, "leuchtturm brillenetui wanderkarte", outside)).response.headers.get(
      "location",
    );
    expect(location).toBe("/portal/applications");
  });

  it("works once: a used, replaced, expired, tampered or truncated link says so and changes nothing", async () => {
    const user = await newUser();
    const first = await mailedToken(user.email);
    const second = await mailedToken(user.email);
    expect((await reset(first!)).response.headers.get("location")).toBe("/password/reset?closed=unknown");
    const tampered = `${second!.slice(0, -1)}${second!.endsWith("A") ? "B" : "A"}`;
    for (const bad of [tampered, second!.slice(0, 30), "not a token", "x".repeat(10_000)])
      expect((await reset(bad)).response.headers.get("location")).toBe("/password/reset?closed=unknown");
    await db().accountLink.updateMany({ where: { userId: user.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await reset(second!)).response.headers.get("location")).toBe("/password/reset?closed=expired");
    const third = await mailedToken(user.email);
    expect((await reset(third!)).response.status).toBe(303);
    expect((await reset(third!)).response.headers.get("location")).toBe("/password/reset?closed=used");
    expect(await db().loginSession.count({ where: { userId: user.id, endedAt: null } })).toBe(1);
  });

  it("changes the password once when the form is sent twice at the same moment", async () => {
    const user = await newUser();
    const token = await mailedToken(user.email);
    const outcomes = await Promise.all([reset(token!), reset(token!)]);
    expect(outcomes.map(({ response }) => response.headers.get("location")).sort()).toEqual([
      "/password/reset?closed=used",
      "/portal/applications",
    ]);
    expect(await db().loginSession.count({ where: { userId: user.id, endedAt: null } })).toBe(1);
    expect(await db().auditEvent.count({ where: { userId: user.id, type: "user.password_reset" } })).toBe(2);
  });

  it("refuses weak, short, huge and unreadable passwords with the reason, keeping the link open", async () => {
    const user = await newUser();
    const token = await mailedToken(user.email);
    const refusals: [string, string][] = [
      ["Password1234", "password_too_guessable"],
      ["passwort12345", "password_too_guessable"],
      ["ritareset2026", "password_too_guessable"],
      ["short one", "password_too_short"],
      ["x".repeat(10_000), "password_too_long"],
      ["kompass\u0007morgentau lesebrille", "password_invalid_characters"],
    ];
    for (const [password, problem] of refusals)
      expect((await reset(token!, password)).response.headers.get("location"), problem).toBe(
        `/password/reset?error=${problem}`,
      );
    // NUL is refused with the form, before any field is read
    expect((await reset(token!, "kompass\u0000morgentau lesebrille")).response.status).toBe(400);
    const link = await db().accountLink.findFirstOrThrow({ where: { userId: user.id } });
    expect(link.usedAt).toBeNull();
    expect((await reset(token!)).response.status).toBe(303);
  });

  it("throttles a burst of requests per network and per address, without a server error", async () => {
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        askFor(`burst-${index}@example.com`, new UserAgent("en", "203.0.113.9")),
      ),
    );
    const locations = responses.map((response) => response.headers.get("location")!);
    expect(responses.every((response) => response.status === 303)).toBe(true);
    expect(locations.filter((location) => location === "/password/forgot?sent=1")).toHaveLength(20);
    expect(locations.filter((location) => location.includes("error=throttled"))).toHaveLength(30);
    // An address over its share answers as ever (its owner must not see a refusal somebody else caused), and mails nothing.
    const user = await newUser();
    await db().outboxMessage.deleteMany();
    const fromAnywhere = async (index: number) => askFor(user.email, new UserAgent("en", `192.0.2.${index}`));
    const perAccount = [];
    for (let index = 0; index < 5; index++) perAccount.push((await fromAnywhere(index)).headers.get("location"));
    expect(perAccount).toEqual(Array(5).fill("/password/forgot?sent=1"));
    expect(await db().outboxMessage.count({ where: { recipient: user.email } })).toBe(3);
  });

  it("refuses a form without its CSRF token and an address that is none", async () => {
    const agent = new UserAgent();
    const stale = await agent.post("forgot", "/interaction/password/forgot", {
      email: "x@example.com",
      csrf_token: "x",
    });
    expect(stale.headers.get("location")).toBe("/password/forgot?error=form_expired");
    for (const email of ["no-at-sign", `${"a".repeat(300)}@example.com`, "a@b"])
      expect((await askFor(email)).headers.get("location")).toBe("/password/forgot?error=invalid_email");
    expect(await db().outboxMessage.count()).toBe(0);
  });
});
