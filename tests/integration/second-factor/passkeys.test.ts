/**
 * Passkeys through /interaction/passkey with a software authenticator: registration on the security
 * page, sign-in without a user name and as a second step, and every refusal of a spoiled response (wrong challenge,
 * origin, relying party, replay, a counter going back, no user verification, an unreadable attestation, an oversized
 * body), none of which writes more than the used challenge, and none a 5xx.
 */
import { decodeJwt } from "jose";
import { prismaStores } from "@/lib/store/stores";
import { describe, expect, it } from "vitest";
import { hashPassword } from "@/lib/crypto/password";
import { SESSION_COOKIE } from "@/lib/session/session-cookie";
import { PENDING_SIGN_IN_COOKIE } from "@/lib/session/pending-sign-in";
import { claimChallenge, issueChallenge } from "@/lib/second-factor/webauthn-challenges";
import { ISSUER, SECRET_KEY, signedInAgent, UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { userTokens } from "../../helpers/platform-api";
import { SoftAuthenticator } from "../../helpers/soft-authenticator";
import { testProvider } from "../../helpers/test-database";
import { setCompanySso } from "@/lib/admin/company-sso-registry";
import { addCompanyDomain, removeCompanyDomain } from "@/lib/admin/company-domains";
import { STANDARD_CLAIMS } from "@/lib/store/models/company-sso";

const service = useOAuthService();
const db = () => service().database.db;
const PASSWORD = "passkey owner passphrase";
const RP_ID = new URL(ISSUER).hostname;

let counter = 0;
async function newUser(): Promise<string> {
  const email = `passkey-${++counter}-${Date.now()}@example.com`;
  await db().user.create({
    data: {
      email,
      givenName: "Pia",
      familyName: "Passkey",
      companyId: "demo-company-optician",
      passwordHash: await hashPassword(PASSWORD),
    },
  });
  return email;
}

const passkey = (agent: UserAgent, form: Record<string, string>) => agent.post("passkey", "/interaction/passkey", form);

/** Runs a ceremony: options, then the authenticator's answer; the second answer, as JSON with its status. */
async function ceremony(
  agent: UserAgent,
  kind: "register" | "sign-in" | "second-factor",
  answer: (options: { challenge: string }) => string,
  extra: Record<string, string> = {},
) {
  const register = kind === "register";
  const step = kind === "second-factor" ? "second-factor" : "sign-in";
  // As the page does, both requests carry the typed fields (the first factor takes the current password).
  const typed = register ? { current_password: PASSWORD, ...extra } : extra;
  const options = await (
    await passkey(agent, { action: register ? "register-options" : "options", step, ...typed })
  ).json();
  const response = await passkey(agent, {
    action: register ? "register" : "verify",
    step,
    response: answer(options),
    ...typed,
  });
  return { status: response.status, body: await response.json() };
}

async function enrolled(): Promise<{ email: string; authenticator: SoftAuthenticator }> {
  const email = await newUser();
  const agent = await signedInAgent(email, PASSWORD);
  const authenticator = new SoftAuthenticator(ISSUER, RP_ID);
  const registered = await ceremony(agent, "register", (options) => authenticator.register(options), {
    name: "Office PC",
  });
  expect(registered).toEqual({ status: 200, body: { next: "/portal/security?done=passkey" } });
  return { email, authenticator };
}

describe(`passkeys on ${testProvider()}`, () => {
  it("are registered with user verification, stored with counter and backup flags, first with recovery codes", async () => {
    const { email, authenticator } = await enrolled();
    const user = await db().user.findUniqueOrThrow({ where: { email }, include: { passkeys: true } });
    expect(user.passkeys).toEqual([
      expect.objectContaining({
        credentialId: authenticator.credentialId,
        name: "Office PC",
        counter: 0n,
        deviceType: "singleDevice",
        backedUp: false,
        transports: '["internal"]',
      }),
    ]);
    expect(await db().recoveryCode.count({ where: { userId: user.id } })).toBe(10);
    expect(await db().auditEvent.count({ where: { userId: user.id, type: "user.passkey_added" } })).toBe(1);
  });

  it("sign a user in without a user name, at the mfa level, and the ID token says so", async () => {
    const { email, authenticator } = await enrolled();
    const agent = new UserAgent();
    const signedIn = await ceremony(agent, "sign-in", (options) => authenticator.assert(options), {
      returnUrl: "/portal/applications",
    });
    expect(signedIn).toEqual({ status: 200, body: { next: "/portal/applications" } });
    expect(agent.cookies.get(SESSION_COOKIE)).toBeTruthy();
    const { id_token } = await userTokens(email, PASSWORD, "openid", agent);
    expect(decodeJwt(id_token!)).toMatchObject({ acr: "urn:optigate:acr:mfa", amr: ["hwk", "user", "mfa"] });
    const stored = await db().passkey.findUniqueOrThrow({ where: { credentialId: authenticator.credentialId } });
    expect(stored).toMatchObject({ counter: 1n, lastUsedAt: expect.any(Date) });
  });

  it("sign no one in alone whose company signs its people in at its own provider only", async () => {
    const { email, authenticator } = await enrolled();
    const stores = prismaStores(db());
    const companyId = "demo-company-optician";
    await setCompanySso(
      stores,
      companyId,
      {
        issuer: "https://idp.optician.example",
        clientId: "optigate",
        clientSecret: "secret",
        authMethod: "client_secret_basic",
        scope: "openid email",
        claims: STANDARD_CLAIMS,
        hostedDomain: null,
        tenantId: null,
        enabled: true,
        ssoOnly: true,
      },
      { secretKey: SECRET_KEY, byOperator: true },
    );
    await addCompanyDomain(stores, companyId, email.split("@")[1], { byOperator: true, verified: true });
    try {
      const refused = await ceremony(new UserAgent(), "sign-in", (options) => authenticator.assert(options));
      expect(refused.body).toMatchObject({ error: "sso_only" });
      expect(refused.status).toBeGreaterThanOrEqual(400);
    } finally {
      await removeCompanyDomain(stores, email.split("@")[1]);
      await stores.companySso.remove(companyId);
    }
  });

  it("are asked for after the password, and only the user's own passkey completes the step", async () => {
    const { email, authenticator } = await enrolled();
    const stranger = await enrolled();
    const agent = new UserAgent();
    const login = await agent.login("/portal/applications", email, PASSWORD);
    expect(login.headers.get("location")).toBe("/login/second-factor?returnUrl=%2Fportal%2Fapplications");
    expect(agent.cookies.get(SESSION_COOKIE)).toBeUndefined();
    expect(agent.cookies.get(PENDING_SIGN_IN_COOKIE)).toBeTruthy();
    const foreign = await ceremony(agent, "second-factor", (options) => stranger.authenticator.assert(options));
    expect(foreign).toEqual({ status: 400, body: { error: "unknown_credential" } });
    const own = await ceremony(agent, "second-factor", (options) => authenticator.assert(options), {
      returnUrl: "/portal/applications",
    });
    expect(own).toEqual({ status: 200, body: { next: "/portal/applications" } });
    const session = await db().loginSession.findFirstOrThrow({
      where: { user: { email } },
      orderBy: { createdAt: "desc" },
    });
    expect(JSON.parse(session.amr)).toEqual(["pwd", "hwk", "user", "mfa"]);
  });

  it("refuse every spoiled response with a clear code, never a 5xx, and write nothing but the used challenge", async () => {
    const { email, authenticator } = await enrolled();
    const agent = new UserAgent();
    // A first sign-in leaves the counter at 5, so that a lower one goes back.
    authenticator.counter = 4;
    expect((await ceremony(new UserAgent(), "sign-in", (options) => authenticator.assert(options))).status).toBe(200);
    const refusals: [string, (options: { challenge: string }) => string][] = [
      ["challenge_unknown", (options) => authenticator.assert(options, { challenge: "A".repeat(43) })],
      ["not_verified", (options) => authenticator.assert(options, { origin: "https://evil.example" })],
      ["not_verified", (options) => authenticator.assert(options, { rpId: "evil.example" })],
      ["not_verified", (options) => authenticator.assert(options, { verified: false })],
      ["not_verified", (options) => authenticator.assert(options, { type: "webauthn.create" })],
      ["not_verified", (options) => authenticator.assert(options, { counter: 3 })],
      ["invalid_response", () => "{not json"],
      ["invalid_response", () => JSON.stringify({ id: "x", rawId: "y", type: "public-key", response: {} })],
      ["invalid_response", (options) => `${authenticator.assert(options)}${" ".repeat(20_000)}`],
      ["unknown_credential", (options) => new SoftAuthenticator(ISSUER, RP_ID).assert(options)],
    ];
    const sessionsBefore = await db().loginSession.count({ where: { user: { email } } });
    for (const [code, answer] of refusals) {
      authenticator.counter = 5;
      const refused = await ceremony(agent, "sign-in", answer);
      expect(refused, code).toEqual({ status: 400, body: { error: code } });
    }
    expect(agent.cookies.get(SESSION_COOKIE)).toBeUndefined();
    expect(await db().loginSession.count({ where: { user: { email } } })).toBe(sessionsBefore);
    const stored = await db().passkey.findUniqueOrThrow({ where: { credentialId: authenticator.credentialId } });
    expect(stored.counter).toBe(5n);
  });

  it("use a challenge once: a replayed response and a response to an old challenge are refused", async () => {
    const { authenticator } = await enrolled();
    const agent = new UserAgent();
    const options = await (await passkey(agent, { action: "options", step: "sign-in" })).json();
    const answer = authenticator.assert(options);
    const first = await passkey(agent, { action: "verify", step: "sign-in", response: answer });
    expect(first.status).toBe(200);
    const replayed = await passkey(agent, { action: "verify", step: "sign-in", response: answer });
    expect(await replayed.json()).toEqual({ error: "challenge_unknown" });
    // Another browser, without the challenge's cookie, cannot use it either.
    const elsewhere = new UserAgent();
    const stolen = await passkey(elsewhere, {
      action: "verify",
      step: "sign-in",
      response: authenticator.assert(options),
    });
    expect(await stolen.json()).toEqual({ error: "challenge_unknown" });
  });

  it("take a challenge within its five minutes only, and for its own purpose", async () => {
    const context = { db: db(), stores: prismaStores(db()), config: { secretKey: SECRET_KEY, publicUrl: ISSUER } };
    const issuedAt = new Date();
    const { challenge, cookie } = issueChallenge(context.config, "sign_in", undefined, issuedAt);
    const sealed = decodeURIComponent(cookie.split(";")[0].split("=")[1]);
    const clientDataJSON = Buffer.from(JSON.stringify({ type: "webauthn.get", challenge })).toString("base64url");
    const claim = (purpose: "sign_in" | "register", at: Date) =>
      claimChallenge(context, { clientDataJSON, cookie: sealed }, purpose, at);
    await expect(claim("sign_in", new Date(issuedAt.getTime() + 5 * 60_000 + 1))).rejects.toMatchObject({
      code: "challenge_unknown",
    });
    await expect(claim("register", issuedAt)).rejects.toMatchObject({ code: "challenge_unknown" });
    await expect(claim("sign_in", new Date(issuedAt.getTime() + 4 * 60_000))).resolves.toEqual({
      challenge,
      userId: null,
    });
    await expect(claim("sign_in", issuedAt)).rejects.toMatchObject({ code: "challenge_unknown" });
  });

  it("refuse registering without a session, a second time, or with an attestation that does not parse", async () => {
    const anonymous = await passkey(new UserAgent(), { action: "register-options" });
    expect(anonymous.status).toBe(401);
    const email = await newUser();
    const agent = await signedInAgent(email, PASSWORD);
    const authenticator = new SoftAuthenticator(ISSUER, RP_ID);
    const broken = await ceremony(agent, "register", (options) =>
      JSON.stringify({
        ...JSON.parse(authenticator.register(options)),
        response: {
          clientDataJSON: JSON.parse(authenticator.register(options)).response.clientDataJSON,
          attestationObject: "AAAA",
        },
      }),
    );
    expect(broken).toEqual({ status: 400, body: { error: "not_verified" } });
    await ceremony(agent, "register", (options) => authenticator.register(options));
    const twice = await ceremony(agent, "register", (options) => authenticator.register(options));
    expect(twice).toEqual({ status: 400, body: { error: "already_enrolled" } });
    expect(await db().passkey.count({ where: { user: { email } } })).toBe(1);
  });
});
