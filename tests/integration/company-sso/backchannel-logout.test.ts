/**
 * Back-channel logout from a company's provider (issue 46, OpenID Connect Back-Channel Logout 1.0), on a real
 * database with real providers (node-oidc-provider on 127.0.0.1): a person signs in through their company's provider
 * to a relying party of OptiGate; when they sign out at the provider, it posts its logout token to OptiGate (served
 * over HTTP), whose session ends as its own sign-out ends one: the cookie opens nothing and the relying party hears of
 * it through its back channel. Tokens the tests sign with a provider's key show the rules: by `sub` or `sid`, only
 * sessions signed in through that provider, of its company's people, and every refused token a 400, never a 500.
 */
import { createLocalJWKSet, jwtVerify } from "jose";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parseClientMetadata } from "@/lib/admin/client-metadata";
import { registerClient } from "@/lib/admin/client-registry";
import { setCompanySso } from "@/lib/admin/company-sso-registry";
import { MAX_LOGOUT_REQUEST_BYTES } from "@/lib/config/policy";
import { seal } from "@/lib/crypto/secret-box";
import { getServiceContext } from "@/lib/service-context";
import { STANDARD_CLAIMS } from "@/lib/store/models/company-sso";
import { prismaStores } from "@/lib/store/stores";
import { CookieBrowser } from "../../helpers/cookie-browser";
import { startHttpService, type HttpService } from "../../helpers/http-service";
import {
  basic,
  call,
  callbackParams,
  formRequest,
  interactionOf,
  ISSUER,
  returnUrlOf,
  SECRET_KEY,
  UserAgent,
  useOAuthService,
} from "../../helpers/oauth-service";
import { startLogoutReceiver, type LogoutReceiver } from "../../helpers/logout-receiver";
import { registerCompanyProvider } from "../../helpers/company-provider";
import { testProvider } from "../../helpers/test-database";
import { signInAtUpstream, startUpstreamIdp, type UpstreamIdp } from "../../helpers/upstream-idp";

process.env.OUTBOUND_ALLOW = "127.0.0.0/8";

const FRAMES = "demo-company-frames";
const LENS = "demo-company-lens";
const NORD = "demo-company-nord";
const DOMAIN = "frame-works.example";
const REDIRECT_URI = `${ISSUER}/login/sso/callback`;
const LOGOUT = "/login/sso/backchannel-logout";
const rp = { client_id: "rp-sso-logout", redirect_uri: "https://rp.example/cb", secret: "rp-sso-logout-secret" };
const person = (name: string) => `${name}@${DOMAIN}`;
const account = (email: string) => ({ [email]: { email, email_verified: true, given_name: email.split("@")[0] } });

const service = useOAuthService();
let http: HttpService;
/** Frame Works' provider; Demo Lens uses another client at the same issuer. */
let upstream: UpstreamIdp;
/** Optik Nord's provider, another issuer. */
let nord: UpstreamIdp;
let receiver: LogoutReceiver;
let received: string[];

/** A relying party of OptiGate that registered a back-channel logout URI, and what it receives there. */
async function startRelyingParty() {
  receiver = await startLogoutReceiver();
  received = receiver.received;
  const metadata = {
    client_id: rp.client_id,
    redirect_uris: [rp.redirect_uri],
    backchannel_logout_uri: receiver.uri,
  };
  const registration = parseClientMetadata(metadata, "platform");
  await registerClient(prismaStores(service().database.db), registration, { value: rp.secret });
}

beforeAll(async () => {
  vi.spyOn(console, "warn").mockImplementation(() => undefined); // node-oidc-provider warns about its development pages
  vi.spyOn(console, "info").mockImplementation(() => undefined);
  http = await startHttpService();
  const clients = [
    { clientId: "optigate", secret: "optigate-secret" },
    { clientId: "optigate-lens", secret: "optigate-lens-secret" },
  ];
  upstream = await startUpstreamIdp({
    redirectUri: REDIRECT_URI,
    clients,
    accounts: Object.assign({}, ...["ada", "bo", "cy", "dee"].map((name) => account(person(name)))),
    backchannelLogoutUri: `${http.origin}${LOGOUT}`,
  });
  nord = await startUpstreamIdp({ redirectUri: REDIRECT_URI, clients, accounts: account("nils@optik-nord.example") });
  const provider = (issuer: string, clientId: string, domain: string) =>
    ({ issuer, clientId, clientSecret: `${clientId}-secret`, domain }) as const;
  await registerCompanyProvider(FRAMES, provider(upstream.issuer, "optigate", DOMAIN));
  await registerCompanyProvider(LENS, provider(upstream.issuer, "optigate-lens", "lens-works.example"));
  await registerCompanyProvider(NORD, provider(nord.issuer, "optigate", "optik-nord.example"));
  await startRelyingParty();
});
afterAll(async () => {
  await Promise.all([upstream?.close(), nord?.close(), http?.close()]);
  await receiver.close();
});

const authorizeParams = {
  client_id: rp.client_id,
  redirect_uri: rp.redirect_uri,
  response_type: "code",
  scope: "openid",
};

/** The authorization request goes on to its code with this browser's session, or back to the login page. */
async function signedIn(agent: UserAgent): Promise<boolean> {
  const response = await agent.authorize({ ...authorizeParams, state: "again" });
  return !response.headers.get("location")!.startsWith("/login");
}

/** `email` signs in at the login page through the company's provider, whose session `providerBrowser` keeps. */
async function signInThroughProvider(agent: UserAgent, providerBrowser: CookieBrowser, email: string, returnUrl = "/") {
  const first = await agent.post("login", "/interaction/login", { username: email, returnUrl });
  const back = await signInAtUpstream(first.headers.get("location")!, REDIRECT_URI, { login: email }, providerBrowser);
  return agent.get("sso-callback", `${back.pathname}${back.search}`);
}

const latestSession = (email: string) =>
  service().database.db.loginSession.findFirstOrThrow({ where: { user: { email } }, orderBy: { createdAt: "desc" } });

/**
 * `email` signs in to the relying party through the company's provider, in a browser of their own (which keeps the
 * provider's session), and the relying party redeems its code: OptiGate's session and the provider's browser.
 */
async function signInToRelyingParty(email: string) {
  const agent = new UserAgent();
  const providerBrowser = new CookieBrowser();
  const returnUrl = returnUrlOf(await agent.authorize({ ...authorizeParams, state: "s" }));
  let response = await signInThroughProvider(agent, providerBrowser, email, returnUrl);
  response = await agent.authorizeUrl(response.headers.get("location")!);
  if (response.headers.get("location")!.startsWith("/consent"))
    response = await agent.consent(interactionOf(response), "allow", ["openid"]);
  const code = callbackParams(response).get("code")!;
  const redeem = { grant_type: "authorization_code", code, redirect_uri: rp.redirect_uri };
  const token = await call(
    "token",
    formRequest("/connect/token", redeem, { Authorization: basic(rp.client_id, rp.secret) }),
  );
  expect(token.status).toBe(200);
  return { agent, providerBrowser, session: await latestSession(email) };
}

const postLogout = (body: string, type = "application/x-www-form-urlencoded") =>
  call(
    "sso-backchannel-logout",
    new Request(`${ISSUER}${LOGOUT}`, { method: "POST", body, headers: { "Content-Type": type } }),
  );
const sendLogoutToken = (logoutToken: string) =>
  postLogout(new URLSearchParams({ logout_token: logoutToken }).toString());

const sessionEnded = async (id: string) =>
  (await service().database.db.loginSession.findUniqueOrThrow({ where: { id } })).endedAt !== null;

async function expectRefused(response: Response) {
  expect(response.status).toBe(400);
  expect(response.headers.get("cache-control")).toBe("no-store");
  expect(await response.json()).toMatchObject({ error: "invalid_request" });
}

async function optigateKeys() {
  const { GET } = await import("@/app/.well-known/openid-configuration/jwks/route");
  return createLocalJWKSet(await (await GET(new Request(`${ISSUER}/jwks`))).json());
}

describe(`back-channel logout from a company's provider on ${testProvider()}`, () => {
  it("ends the OptiGate session when the person signs out at the provider, and tells OptiGate's relying party", async () => {
    const ada = await signInToRelyingParty(person("ada"));
    const bo = await signInToRelyingParty(person("bo"));
    expect(ada.session).toMatchObject({ upstreamIssuer: upstream.issuer, upstreamSid: expect.any(String) });
    expect(await signedIn(ada.agent)).toBe(true);
    received.length = 0;

    await upstream.signOut(ada.providerBrowser);

    expect(upstream.logouts.at(-1)).toEqual({ clientId: "optigate", sub: person("ada"), sid: ada.session.upstreamSid });
    expect(await sessionEnded(ada.session.id)).toBe(true);
    expect(await signedIn(ada.agent)).toBe(false);
    expect(await signedIn(bo.agent)).toBe(true);
    expect(received).toHaveLength(1);
    const { payload } = await jwtVerify(received[0], await optigateKeys(), { issuer: ISSUER, audience: rp.client_id });
    expect(payload).toMatchObject({ sid: ada.session.id, sub: ada.session.userId });
    const audit = await service().database.db.auditEvent.findFirstOrThrow({
      where: { type: "company.sso_logout", userId: ada.session.userId },
    });
    expect(JSON.parse(audit.details)).toMatchObject({
      companyIds: [FRAMES],
      issuer: upstream.issuer,
      subject: person("ada"),
      sessionIds: [ada.session.id],
    });
  });

  it("ends by sid alone or by sub alone only the sessions signed in through the provider", async () => {
    const first = await signInToRelyingParty(person("cy"));
    const second = await signInToRelyingParty(person("cy"));
    const { stores } = getServiceContext();
    const byPassword = await stores.loginSessions.save("cy-by-password", first.session.userId, {}, new Date(), ["pwd"]);

    const bySid = await sendLogoutToken(await upstream.logoutToken("optigate", { sid: first.session.upstreamSid! }));
    expect([bySid.status, bySid.headers.get("cache-control")]).toEqual([200, "no-store"]);
    expect([await sessionEnded(first.session.id), await sessionEnded(second.session.id)]).toEqual([true, false]);

    const bySub = await sendLogoutToken(await upstream.logoutToken("optigate", { sub: person("cy") }));
    expect(bySub.status).toBe(200);
    expect([await sessionEnded(second.session.id), await sessionEnded(byPassword)]).toEqual([true, false]);
  });

  it("keeps the provider with a session the second step starts, so that its logout ends that one too", async () => {
    const { db } = service().database;
    await signInThroughProvider(new UserAgent(), new CookieBrowser(), person("dee"));
    const userId = (await latestSession(person("dee"))).userId;
    const app = new TOTP({ secret: new Secret(), digits: 6, period: 30 });
    const sealedSecret = seal(app.secret.base32, SECRET_KEY, "totp-secret");
    await db.totpFactor.create({ data: { userId, sealedSecret, createdAt: new Date(), confirmedAt: new Date() } });
    const agent = new UserAgent();
    const providerBrowser = new CookieBrowser();
    const back = await signInThroughProvider(agent, providerBrowser, person("dee"));
    expect(back.headers.get("location")).toMatch(/^\/login\/second-factor/);
    const step = await agent.post("second-factor", "/interaction/second-factor", {
      code: app.generate(),
      returnUrl: "/",
    });
    expect(step.headers.get("location")).toBe("/");
    const session = await latestSession(person("dee"));
    expect(JSON.parse(session.amr)).toContain("mfa");
    expect(session).toMatchObject({ upstreamIssuer: upstream.issuer, upstreamSid: expect.any(String) });
    await upstream.signOut(providerBrowser);
    expect(await sessionEnded(session.id)).toBe(true);
  });

  it("lets no other company's provider end a session, and answers 200 when nothing matched", async () => {
    const ada = await signInToRelyingParty(person("ada"));
    const claims = { sub: person("ada"), sid: ada.session.upstreamSid! };
    // Demo Lens's client at the same issuer, and Optik Nord's own provider: both verified, neither speaks for ada.
    expect((await sendLogoutToken(await upstream.logoutToken("optigate-lens", claims))).status).toBe(200);
    expect((await sendLogoutToken(await nord.logoutToken("optigate", claims))).status).toBe(200);
    // Optik Nord's provider passing itself off as Frame Works' provider: its key is not that provider's.
    await expectRefused(await sendLogoutToken(await nord.logoutToken("optigate", { ...claims, iss: upstream.issuer })));
    expect(await sessionEnded(ada.session.id)).toBe(false);
    expect(await signedIn(ada.agent)).toBe(true);
  });

  it("verifies with each company registered for the issuer and client, ending sessions only where it verified", async () => {
    // A company's administrator registers Frame Works' issuer and client id; its id sorts first, and its registration,
    // on the loopback, is one OptiGate never reaches for a company administrator: it verifies nothing.
    const { stores, config } = getServiceContext();
    const squatter = "a-squatter";
    await stores.companies.insert(squatter, { name: "Squatter", kind: "supplier", webServices: [] });
    const registration = {
      issuer: upstream.issuer,
      clientId: "optigate",
      clientSecret: "squatter-secret",
      authMethod: "client_secret_basic" as const,
      scope: "openid email profile",
      claims: STANDARD_CLAIMS,
      hostedDomain: null,
      tenantId: null,
      enabled: true,
    };
    await setCompanySso(stores, squatter, registration, { secretKey: config.secretKey, byOperator: false });
    try {
      const ada = await signInToRelyingParty(person("ada"));
      const response = await sendLogoutToken(await upstream.logoutToken("optigate", { sid: ada.session.upstreamSid! }));
      expect(response.status).toBe(200);
      expect(await sessionEnded(ada.session.id)).toBe(true);
      const audit = await service().database.db.auditEvent.findFirstOrThrow({
        where: { type: "company.sso_logout", userId: ada.session.userId },
        orderBy: { occurredAt: "desc" },
      });
      expect(JSON.parse(audit.details)).toMatchObject({ companyIds: [FRAMES], sessionIds: [ada.session.id] });
      // A token that no registration verifies is still refused.
      await expectRefused(
        await sendLogoutToken(await upstream.logoutToken("optigate", { sub: person("ada") }, "stranger")),
      );
    } finally {
      await stores.companySso.remove(squatter);
    }
  });

  it("refuses a replayed token", async () => {
    const token = await upstream.logoutToken("optigate", { sub: person("nobody") });
    expect((await sendLogoutToken(token)).status).toBe(200);
    await expectRefused(await sendLogoutToken(token));
  });

  it("refuses bad tokens and bad requests with 400 and ends nothing", async () => {
    const ada = await signInToRelyingParty(person("ada"));
    const sub = { sub: person("ada") };
    const now = Math.floor(Date.now() / 1000);
    const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString("base64url");
    const valid = await upstream.logoutToken("optigate", sub);
    const unsigned = `${encode({ alg: "none" })}.${valid.split(".")[1]}.`;
    const cases: [string, string, RegExp][] = [
      ["a stranger's signature", await upstream.logoutToken("optigate", sub, "stranger"), /signature verification/],
      ["no signature (alg none)", unsigned, /"alg"/],
      ["another audience", await upstream.logoutToken("someone-else", sub), /no company's provider/],
      ["a nonce", await upstream.logoutToken("optigate", { ...sub, nonce: "n-0S6_WzA2Mj" }), /nonce/],
      ["no events", await upstream.logoutToken("optigate", { ...sub, events: undefined }), /events/],
      ["another event", await upstream.logoutToken("optigate", { ...sub, events: { "urn:example:e": {} } }), /events/],
      ["neither sub nor sid", await upstream.logoutToken("optigate", {}), /neither a sub nor a sid/],
      ["an old iat", await upstream.logoutToken("optigate", { ...sub, iat: now - 3600 }), /iat/],
      ["an expired exp", await upstream.logoutToken("optigate", { ...sub, exp: now - 600 }), /"exp"/],
      ["no jti", await upstream.logoutToken("optigate", { ...sub, jti: undefined }), /jti/],
      ["not a JWT", "not-a-jwt", /not a JWT/],
    ];
    for (const [problem, token, reason] of cases) {
      const response = await sendLogoutToken(token);
      expect(response.status, problem).toBe(400);
      expect(response.headers.get("cache-control"), problem).toBe("no-store");
      expect(await response.json(), problem).toEqual({
        error: "invalid_request",
        error_description: expect.stringMatching(reason),
      });
    }
    const twoTokens = new URLSearchParams([
      ["logout_token", valid],
      ["logout_token", valid],
    ]);
    await expectRefused(await postLogout(twoTokens.toString()));
    await expectRefused(await postLogout(`logout_token=${"a".repeat(MAX_LOGOUT_REQUEST_BYTES)}`));
    await expectRefused(await postLogout(JSON.stringify({ logout_token: valid }), "application/json"));
    await expectRefused(await postLogout(""));
    expect(await sessionEnded(ada.session.id)).toBe(false);
  });
});
