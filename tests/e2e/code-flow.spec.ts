/**
 * The authorization code flow through the real pages in Chromium, with openid-client as the relying party:
 * demo-web (code + secret) and demo-native (code + PKCE, loopback redirect on a random port), single sign-on between
 * them, and the ID token verified against the published JWKS.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { createRemoteJWKSet, jwtVerify } from "jose";
import * as oidc from "openid-client";
import { redirectToClient } from "./client-redirect";

async function relyingParty(baseURL: string, clientId: string, auth: oidc.ClientAuth): Promise<oidc.Configuration> {
  const config = await oidc.discovery(new URL(baseURL), clientId, undefined, auth, {
    execute: [oidc.allowInsecureRequests],
  });
  oidc.enableNonRepudiationChecks(config); // verify ID token signatures against the JWKS
  return config;
}

/** A native app's loopback listener: resolves with the URL the browser was redirected to. */
async function loopbackListener(): Promise<{ server: Server; redirectUri: string; callback: Promise<URL> }> {
  let resolve!: (url: URL) => void;
  const callback = new Promise<URL>((r) => (resolve = r));
  const server = createServer((request, response) => {
    resolve(new URL(request.url!, `http://127.0.0.1:${(server.address() as AddressInfo).port}`));
    response.end("You can close this window.");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, redirectUri: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`, callback };
}

async function signIn(page: Page) {
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await page.fill("input[name=username]", "optician@demo.test");
  await page.locator("button[type=submit]").click();
  await page.fill("input[name=password]", "Optician#2026");
  await page.locator("button[type=submit]").click();
}

async function verifyIdToken(baseURL: string, config: oidc.Configuration, idToken: string, clientId: string) {
  const jwks = createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!));
  const { payload, protectedHeader } = await jwtVerify(idToken, jwks, { issuer: baseURL, audience: clientId });
  expect(protectedHeader.alg).toBe("RS256");
  return payload;
}

test("code flow for demo-web and demo-native: login, partial consent, tokens, userinfo, single sign-on", async ({
  page,
  baseURL,
}) => {
  // demo-web: server web app with a secret.
  const web = await relyingParty(baseURL!, "demo-web", oidc.ClientSecretBasic("demo-web-secret"));
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const webRedirect = "http://localhost:4000/callback";
  const loginPage = await page.goto(
    oidc.buildAuthorizationUrl(web, {
      redirect_uri: webRedirect,
      scope: "openid profile email offline_access",
      state,
      nonce,
    }).href,
  );
  expect(loginPage!.url()).toContain("/login?");
  const headers = await loginPage!.allHeaders();
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["referrer-policy"]).toBe("no-referrer");

  await signIn(page);
  await expect(page).toHaveURL(/\/consent\?/);
  await expect(page.getByText("Demo web shop asks for permission to:")).toBeVisible();
  for (const scope of ["openid", "profile", "email", "offline_access"]) {
    await expect(page.locator(`input[type=checkbox][name=scope][value=${scope}]`)).toBeChecked();
  }
  await expect(page.locator("input[type=checkbox][name=scope][value=openid]")).toBeDisabled();
  await page.locator("input[type=checkbox][name=scope][value=email]").uncheck();
  const webCallback = await redirectToClient(page, "http://localhost:4000", () =>
    page.locator("button[name=decision][value=allow]").click(),
  );

  const webTokens = await oidc.authorizationCodeGrant(web, webCallback, {
    expectedState: state,
    expectedNonce: nonce,
    idTokenExpected: true,
  });
  expect(webTokens.scope).toBe("openid profile offline_access");
  expect(webTokens.refresh_token).toBeTruthy();
  const idClaims = await verifyIdToken(baseURL!, web, webTokens.id_token!, "demo-web");
  expect(idClaims.nonce).toBe(nonce);
  const userinfo = await oidc.fetchUserInfo(web, webTokens.access_token, idClaims.sub!);
  expect(userinfo).toMatchObject({ given_name: "Olivia", family_name: "Optik", company: "Augenoptik Demo GmbH" });
  expect(userinfo.email).toBeUndefined();

  // demo-native: public client with PKCE on a loopback port; the session gives single sign-on, consent is its own.
  const native = await relyingParty(baseURL!, "demo-native", oidc.None());
  const listener = await loopbackListener();
  try {
    const verifier = oidc.randomPKCECodeVerifier();
    const nativeState = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(native, {
      redirect_uri: listener.redirectUri,
      scope: "openid profile",
      state: nativeState,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    });
    await page.goto(url.href);
    await expect(page).toHaveURL(/\/consent\?/); // no login page: single sign-on
    await expect(page.getByText("Demo desktop app asks for permission to:")).toBeVisible();
    await page.locator("button[name=decision][value=allow]").click();
    const callback = await listener.callback;
    const nativeTokens = await oidc.authorizationCodeGrant(native, callback, {
      pkceCodeVerifier: verifier,
      expectedState: nativeState,
      idTokenExpected: true,
    });
    const nativeClaims = await verifyIdToken(baseURL!, native, nativeTokens.id_token!, "demo-native");
    expect(nativeClaims.sub).toBe(idClaims.sub);
    expect(nativeClaims.sid).toBe(idClaims.sid);
    expect(nativeTokens.refresh_token).toBeUndefined(); // offline access was not asked for
    const nativeUser = await oidc.fetchUserInfo(native, nativeTokens.access_token, nativeClaims.sub!);
    expect(nativeUser.given_name).toBe("Olivia");
  } finally {
    listener.server.close();
  }
});

test("the login page is localized by ui_locales and refuses wrong passwords without saying why", async ({
  page,
  baseURL,
}) => {
  const web = await relyingParty(baseURL!, "demo-web", oidc.ClientSecretBasic("demo-web-secret"));
  await page.goto(
    oidc.buildAuthorizationUrl(web, {
      redirect_uri: "http://localhost:4000/callback",
      scope: "openid",
      state: "s",
      ui_locales: "de",
    }).href,
  );
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByRole("heading", { name: "Anmelden" })).toBeVisible();
  await page.fill("input[name=username]", "optician@demo.test");
  await page.locator("button[type=submit]").click();
  await page.fill("input[name=password]", "falsch");
  await page.locator("button[type=submit]").click();
  await expect(page.locator("main [role=alert]")).toHaveText("E-Mail-Adresse oder Passwort ist nicht korrekt.");
  await expect(page.locator("input[name=username]")).toHaveValue("optician@demo.test");
});
