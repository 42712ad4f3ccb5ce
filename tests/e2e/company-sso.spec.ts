/**
 * Company sign-in in Chromium, the whole round trip (issue 46): a relying party's code + PKCE request, OptiGate's login
 * page asking for the address, the company's own provider (node-oidc-provider on 127.0.0.1 with its development login
 * page, where any password works), back at OptiGate's consent page, and the code redeemed for an ID token that says
 * the person signed in federated. In German (the relying party's ui_locales) and in French (the browser's language),
 * with the texts taken from messages/; prompt=login passed on to the provider; the provider down before and during the
 * sign-in. The demo's Optik Nord is pointed at the test's provider with the operator CLI, and back afterwards.
 */
import { randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { createTranslator } from "next-intl";
import * as oidc from "openid-client";
import { demoCompanySso } from "../../prisma/demo-data";
import { startUpstreamIdp, type UpstreamIdp } from "../helpers/upstream-idp";
import { adminCommand } from "./admin-command";

type Messages = typeof import("../../messages/en.json");

const textsIn = (locale: string) =>
  createTranslator({
    locale,
    messages: JSON.parse(
      readFileSync(path.join(import.meta.dirname, "../../messages", `${locale}.json`), "utf8"),
    ) as Messages,
  });

/** The relying party: the demo's native app (public, code + PKCE), which may listen on any loopback port. */
const CLIENT_ID = "demo-native";
const SCOPE = "openid profile email";

/**
 * The app's loopback listener, a real server (so that no failing navigation races the test): hands each callback it
 * receives to whoever asked for the next one.
 */
async function appListener() {
  const waiting: ((url: URL) => void)[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url!, redirectUri);
    if (url.pathname === "/callback") waiting.shift()?.(url);
    response.end("You can close this window.");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  return {
    redirectUri,
    /** The next callback; ask before the step that leads there. */
    nextCallback: () => new Promise<URL>((resolve) => waiting.push(resolve)),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

let app: Awaited<ReturnType<typeof appListener>>;

interface Person {
  email: string;
  given_name: string;
  family_name: string;
}

const personOf = (given: string, family: string): Person => ({
  // Unique, so that the test signs a new person in (just in time) also when run again against the same database.
  email: `${family.toLowerCase()}-${randomUUID().slice(0, 8)}@${demoCompanySso.domain}`,
  given_name: given,
  family_name: family,
});

/** Optik Nord signs in at `issuer` from now on, as an operator sets it up. */
function pointNordAt(baseURL: string, settings: { issuer: string; client_id: string; client_secret: string }) {
  const file = path.join(process.env.E2E_DATA_DIR!, `company-sso-${randomUUID()}.json`);
  writeFileSync(file, JSON.stringify({ ...settings, scope: "openid email profile" }));
  adminCommand(baseURL, "companies", "sso", "set", demoCompanySso.companyId, file);
}

/** Optik Nord's provider, started for the test, knowing `people`; OptiGate is its client with a fresh secret. */
async function nordProvider(baseURL: string, people: Person[]): Promise<UpstreamIdp> {
  const client = { clientId: "optigate-e2e", secret: randomUUID() };
  const accounts = Object.fromEntries(people.map((person) => [person.email, { ...person, email_verified: true }]));
  const provider = await startUpstreamIdp({
    redirectUri: `${baseURL}/login/sso/callback`,
    clients: [client],
    accounts,
  });
  pointNordAt(baseURL, { issuer: provider.issuer, client_id: client.clientId, client_secret: client.secret });
  return provider;
}

async function authorizationEndpointOf(provider: UpstreamIdp): Promise<string> {
  const metadata = await (await fetch(`${provider.issuer}/.well-known/openid-configuration`)).json();
  return metadata.authorization_endpoint;
}

/** The requests the browser sends to the provider, in order. */
function requestsTo(page: Page, provider: UpstreamIdp): URL[] {
  const seen: URL[] = [];
  const origin = new URL(provider.issuer).origin;
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.origin === origin) seen.push(url);
  });
  return seen;
}

/** OptiGate's answers to the browser: where and with which status. */
function answersFrom(page: Page, baseURL: string): { url: URL; status: number }[] {
  const answers: { url: URL; status: number }[] = [];
  page.on("response", (response) => {
    const url = new URL(response.url());
    if (url.origin === baseURL) answers.push({ url, status: response.status() });
  });
  return answers;
}

async function relyingParty(baseURL: string) {
  const config = await oidc.discovery(new URL(baseURL), CLIENT_ID, undefined, oidc.None(), {
    execute: [oidc.allowInsecureRequests],
  });
  oidc.enableNonRepudiationChecks(config); // the ID token's signature is checked against OptiGate's JWKS
  const verifier = oidc.randomPKCECodeVerifier();
  const checks = { pkceCodeVerifier: verifier, expectedState: oidc.randomState(), expectedNonce: oidc.randomNonce() };
  const authorizationUrl = async (extra: Record<string, string> = {}) =>
    oidc.buildAuthorizationUrl(config, {
      redirect_uri: app.redirectUri,
      scope: SCOPE,
      state: checks.expectedState,
      nonce: checks.expectedNonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      ...extra,
    }).href;
  return { config, checks, authorizationUrl };
}

/** The ID token for the code at `callback`, its signature checked against OptiGate's JWKS. */
async function idTokenClaims(baseURL: string, rp: Awaited<ReturnType<typeof relyingParty>>, callback: URL) {
  const tokens = await oidc.authorizationCodeGrant(rp.config, callback, { ...rp.checks, idTokenExpected: true });
  const jwks = createRemoteJWKSet(new URL(rp.config.serverMetadata().jwks_uri!));
  const { payload } = await jwtVerify(tokens.id_token!, jwks, { issuer: baseURL, audience: CLIENT_ID });
  return { claims: payload, userinfo: await oidc.fetchUserInfo(rp.config, tokens.access_token, payload.sub!) };
}

/** The login page's first step: the address alone, whose domain is Optik Nord's. */
async function enterAddress(page: Page, locale: string, email: string) {
  const t = textsIn(locale);
  await expect(page).toHaveURL(/\/login\?/);
  await expect(page.locator("html")).toHaveAttribute("lang", locale);
  await expect(page.getByRole("heading", { name: t("Login.title") })).toBeVisible();
  await expect(page.locator("input[name=password]")).toHaveCount(0);
  await page.fill("input[name=username]", email);
  await page.locator("button[type=submit]").click();
}

/** The provider's own (development) login page: the address arrives as login_hint; any password is taken. */
async function logInAtProvider(page: Page, email: string, options: { consent: boolean }) {
  await expect(page.locator("input[name=login]")).toHaveValue(email);
  await page.fill("input[name=password]", "any password");
  await page.locator("button[type=submit]").click();
  if (!options.consent) return;
  await expect(page.locator("input[name=prompt][value=consent]")).toBeAttached();
  await page.locator("button[type=submit]").click();
}

/** OptiGate's consent page for the person who came back from the provider, and the code it sends the client. */
async function allowAtOptiGate(page: Page, locale: string, person: Person): Promise<URL> {
  const t = textsIn(locale);
  await expect(page).toHaveURL(/\/consent\?/);
  await expect(page.locator("html")).toHaveAttribute("lang", locale);
  await expect(page.getByRole("heading", { name: t("Consent.title") })).toBeVisible();
  const name = `${person.given_name} ${person.family_name}`;
  await expect(page.getByText(t("Consent.signedInAs", { name, email: person.email }))).toBeVisible();
  for (const scope of SCOPE.split(" "))
    await expect(page.locator(`input[type=checkbox][name=scope][value=${scope}]`)).toBeChecked();
  const allow = page.locator("button[name=decision][value=allow]");
  await expect(allow).toHaveText(t("Consent.allow"));
  const callback = app.nextCallback();
  await allow.click();
  return callback;
}

/**
 * What a federated sign-in of `person` must give the relying party: the ID token says how (demo-native's carry
 * no profile claims: those are userinfo's), userinfo who, as the provider told it.
 */
function expectFederatedSignIn({ claims, userinfo }: Awaited<ReturnType<typeof idTokenClaims>>, person: Person): void {
  expect(claims.amr).toContain("fed");
  expect(claims.amr).not.toContain("pwd");
  expect(userinfo.sub).toBe(claims.sub);
  expect(userinfo).toMatchObject({
    email: person.email,
    // The provider says the address is verified, and the operator verified the domain.
    email_verified: true,
    given_name: person.given_name,
    family_name: person.family_name,
  });
}

/**
 * The round trip up to the code: OptiGate's login page, the provider (which must be asked with the address as
 * login_hint, `uiLocales` and PKCE), OptiGate's consent page. Returns where OptiGate sent the code.
 */
async function roundTrip(
  page: Page,
  provider: UpstreamIdp,
  { locale, person, uiLocales }: { locale: string; person: Person; uiLocales: string },
) {
  const authorizationEndpoint = await authorizationEndpointOf(provider);
  const atProvider = page.waitForRequest((request) => request.url().startsWith(`${authorizationEndpoint}?`));
  await enterAddress(page, locale, person.email);
  const request = new URL((await atProvider).url());
  expect(request.searchParams.get("login_hint")).toBe(person.email);
  expect(request.searchParams.get("ui_locales")).toBe(uiLocales);
  expect(request.searchParams.get("code_challenge_method")).toBe("S256");
  expect(request.searchParams.get("prompt")).toBeNull();
  await logInAtProvider(page, person.email, { consent: true });
  return allowAtOptiGate(page, locale, person);
}

/**
 * Stops the provider once it has answered, before OptiGate can redeem the code it sends back: the browser's consent
 * form at the provider is sent from here, the provider's redirects followed with the browser's cookies up to OptiGate's
 * callback, and the browser then sent there. (Playwright holds no redirected request, so the callback itself cannot
 * be held.)
 */
async function stopProviderBeforeCallback(page: Page, provider: UpstreamIdp, baseURL: string) {
  const origin = new URL(provider.issuer).origin;
  const callback = `${baseURL}/login/sso/callback?`;
  await page.route(
    (url) => url.origin === origin,
    async (route) => {
      const request = route.request();
      if (request.method() !== "POST" || !request.postData()?.includes("prompt=consent")) return route.continue();
      let response = await route.fetch({ maxRedirects: 0 });
      for (let step = 0; step < 5 && !(response.headers()["location"] ?? callback).startsWith(callback); step++)
        response = await page.request.get(new URL(response.headers()["location"], origin).href, { maxRedirects: 0 });
      await provider.close();
      await route.fulfill({ response });
    },
  );
}

test.beforeEach(async ({ context }) => {
  // The provider's development pages load a web font; this machine has no way out, and the page needs none.
  await context.route(/^https:\/\/fonts\.googleapis\.com\//, (route) => route.abort());
});

test.beforeAll(async () => {
  app = await appListener();
});

test.afterAll(async () => {
  await app.close();
  // Back to the demo's provider, so that later specs see Optik Nord as the demo has it.
  pointNordAt(`http://localhost:${process.env.E2E_PORT}`, {
    issuer: demoCompanySso.issuer,
    client_id: demoCompanySso.clientId,
    client_secret: demoCompanySso.clientSecret,
  });
});

test.describe("with an English browser and ui_locales=de", () => {
  test.use({ locale: "en-GB" });

  test("a person of Optik Nord signs in at the company's provider, in German throughout", async ({ page, baseURL }) => {
    const person = personOf("Jörg", "Nordmann");
    const provider = await nordProvider(baseURL!, [person]);
    try {
      const rp = await relyingParty(baseURL!);
      await page.goto(await rp.authorizationUrl({ ui_locales: "de" }));
      const callback = await roundTrip(page, provider, { locale: "de", person, uiLocales: "de" });
      expect(provider.requests).toContain("/token"); // OptiGate redeemed the provider's code
      expectFederatedSignIn(await idTokenClaims(baseURL!, rp, callback), person);
    } finally {
      await provider.close();
    }
  });
});

test.describe("with a French browser", () => {
  test.use({ locale: "fr-FR" });

  test("another person signs in in French, the page's language passed on to the provider", async ({
    page,
    baseURL,
  }) => {
    const person = personOf("Margaux", "Dubois");
    const provider = await nordProvider(baseURL!, [person]);
    try {
      const rp = await relyingParty(baseURL!);
      await page.goto(await rp.authorizationUrl());
      const callback = await roundTrip(page, provider, { locale: "fr", person, uiLocales: "fr" });
      expectFederatedSignIn(await idTokenClaims(baseURL!, rp, callback), person);
    } finally {
      await provider.close();
    }
  });

  test("the provider down during the sign-in: a clear French page on OptiGate, never a server error", async ({
    page,
    baseURL,
  }) => {
    const person = personOf("Luc", "Martin");
    const provider = await nordProvider(baseURL!, [person]);
    const answers = answersFrom(page, baseURL!);
    try {
      await stopProviderBeforeCallback(page, provider, baseURL!);
      const rp = await relyingParty(baseURL!);
      await page.goto(await rp.authorizationUrl());
      await enterAddress(page, "fr", person.email);
      await logInAtProvider(page, person.email, { consent: true });
      await expect(page).toHaveURL(/\/login\?/);
      await expect(page.locator("html")).toHaveAttribute("lang", "fr");
      await expect(page.locator("main [role=alert]")).toHaveText(textsIn("fr")("Login.errors.sso_unreachable"));
      // The person came back with the provider's code: what failed was redeeming it.
      expect(answers.some(({ url }) => url.pathname === "/login/sso/callback" && url.searchParams.has("code"))).toBe(
        true,
      );
      expect(answers.filter(({ status }) => status >= 500)).toEqual([]);
    } finally {
      await provider.close();
    }
  });
});

test.describe("with an English browser", () => {
  test.use({ locale: "en-GB" });

  test("prompt=login makes the company's provider ask again, although it has a session", async ({
    page,
    context,
    baseURL,
  }) => {
    const person = personOf("Nils", "Nord");
    const provider = await nordProvider(baseURL!, [person]);
    const atProvider = requestsTo(page, provider);
    const loginPages = () => atProvider.filter((url) => url.pathname.startsWith("/interaction/")).length;
    try {
      const first = await relyingParty(baseURL!);
      await page.goto(await first.authorizationUrl());
      const firstClaims = await idTokenClaims(
        baseURL!,
        first,
        await roundTrip(page, provider, { locale: "en", person, uiLocales: "en" }),
      );
      expectFederatedSignIn(firstClaims, person);

      // Without prompt=login, a new OptiGate session comes from the provider's session: no page of the provider.
      await context.clearCookies({ domain: "localhost" });
      const shown = loginPages();
      const again = await relyingParty(baseURL!);
      await page.goto(await again.authorizationUrl());
      const silently = app.nextCallback();
      await enterAddress(page, "en", person.email);
      const silentClaims = (await idTokenClaims(baseURL!, again, await silently)).claims;
      expect(loginPages()).toBe(shown);
      expect(silentClaims.sub).toBe(firstClaims.claims.sub);

      // With prompt=login, OptiGate asks again, and so must the provider.
      const authorizationEndpoint = await authorizationEndpointOf(provider);
      const rp = await relyingParty(baseURL!);
      await page.goto(await rp.authorizationUrl({ prompt: "login" }));
      const request = page.waitForRequest((each) => each.url().startsWith(`${authorizationEndpoint}?`));
      await enterAddress(page, "en", person.email);
      expect(new URL((await request).url()).searchParams.get("prompt")).toBe("login");
      const callback = app.nextCallback();
      await logInAtProvider(page, person.email, { consent: false });
      const { claims } = await idTokenClaims(baseURL!, rp, await callback);
      expect(loginPages()).toBeGreaterThan(shown);
      expect(claims.sub).toBe(firstClaims.claims.sub);
      expect(claims.amr).toContain("fed");
    } finally {
      await provider.close();
    }
  });
});

test.describe("with a German browser", () => {
  test.use({ locale: "de-DE" });

  test("the provider down when the address is entered: a clear German page, never a server error", async ({
    page,
    baseURL,
  }) => {
    const person = personOf("Greta", "Brandt");
    const provider = await nordProvider(baseURL!, [person]);
    await provider.close();
    const answers = answersFrom(page, baseURL!);
    const rp = await relyingParty(baseURL!);
    await page.goto(await rp.authorizationUrl());
    await enterAddress(page, "de", person.email);
    await expect(page).toHaveURL(/\/login\?/);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.locator("main [role=alert]")).toHaveText(textsIn("de")("Login.errors.sso_unreachable"));
    await expect(page.locator("input[name=password]")).toHaveCount(0);
    expect(answers.filter(({ status }) => status >= 500)).toEqual([]);
  });
});
