/**
 * The other grants with openid-client as the relying party: demo-web refreshing (and failing to after revocation),
 * demo-backend with client credentials, and demo-implicit signing in through Chromium.
 */
import { expect, test, type Page } from "@playwright/test";
import { createRemoteJWKSet, jwtVerify } from "jose";
import * as oidc from "openid-client";
import { redirectToClient } from "./client-redirect";

const insecure = { execute: [oidc.allowInsecureRequests] };

/** Signs the demo optician in, allows, and returns the client's callback URL. */
async function signInAndAllow(page: Page, url: URL, clientOrigin: string): Promise<URL> {
  await page.goto(url.href);
  await page.fill("input[name=username]", "optician@demo.test");
  await page.locator("button[type=submit]").click();
  await page.fill("input[name=password]", "Optician#2026");
  await page.locator("button[type=submit]").click();
  await expect(page).toHaveURL(/\/consent\?/);
  return redirectToClient(page, clientOrigin, () => page.locator("button[name=decision][value=allow]").click());
}

test("demo-web refreshes its tokens, revokes the refresh token, and then fails to refresh", async ({
  page,
  baseURL,
}) => {
  const web = await oidc.discovery(
    new URL(baseURL!),
    "demo-web",
    undefined,
    oidc.ClientSecretBasic("demo-web-secret"),
    insecure,
  );
  const state = oidc.randomState();
  const callback = await signInAndAllow(
    page,
    oidc.buildAuthorizationUrl(web, {
      redirect_uri: "http://localhost:4000/callback",
      scope: "openid profile offline_access",
      state,
    }),
    "http://localhost:4000",
  );
  const tokens = await oidc.authorizationCodeGrant(web, callback, { expectedState: state, idTokenExpected: true });
  expect(tokens.refresh_token).toBeTruthy();

  const refreshed = await oidc.refreshTokenGrant(web, tokens.refresh_token!);
  expect(refreshed.access_token).not.toBe(tokens.access_token);
  expect(refreshed.claims()?.sub).toBe(tokens.claims()?.sub);
  const narrowed = await oidc.refreshTokenGrant(web, tokens.refresh_token!, { scope: "profile" });
  expect(narrowed.id_token).toBeUndefined();

  const introspected = await oidc.tokenIntrospection(web, refreshed.access_token);
  expect(introspected).toMatchObject({ active: true, client_id: "demo-web" });

  await oidc.tokenRevocation(web, tokens.refresh_token!, { token_type_hint: "refresh_token" });
  await expect(oidc.refreshTokenGrant(web, tokens.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
});

test("demo-backend gets a token with client credentials", async ({ baseURL }) => {
  const backend = await oidc.discovery(
    new URL(baseURL!),
    "demo-backend",
    undefined,
    oidc.ClientSecretBasic("demo-backend-secret"),
    insecure,
  );
  const tokens = await oidc.clientCredentialsGrant(backend, { scope: "platform.catalogs.read" });
  expect(tokens.token_type).toBe("bearer");
  expect(tokens.refresh_token).toBeUndefined();
  const jwks = createRemoteJWKSet(new URL(backend.serverMetadata().jwks_uri!));
  const { payload } = await jwtVerify(tokens.access_token, jwks, { issuer: baseURL, typ: "at+jwt" });
  expect(payload).toMatchObject({ sub: "demo-backend", client_id: "demo-backend", scope: "platform.catalogs.read" });
  await expect(oidc.clientCredentialsGrant(backend, { scope: "openid" })).rejects.toMatchObject({
    error: "invalid_scope",
  });
});

test("demo-implicit signs in through Chromium and receives tokens in the fragment", async ({ page, baseURL }) => {
  const implicit = await oidc.discovery(new URL(baseURL!), "demo-implicit", undefined, oidc.None(), insecure);
  oidc.useIdTokenResponseType(implicit);
  const nonce = oidc.randomNonce();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(implicit, {
    redirect_uri: "http://localhost:5174/callback",
    response_type: "id_token",
    scope: "openid profile email",
    nonce,
    state,
  });
  const callback = await signInAndAllow(page, url, "http://localhost:5174");
  expect(callback.search).toBe(""); // results travel in the fragment only
  const claims = await oidc.implicitAuthentication(implicit, callback, nonce, { expectedState: state });
  expect(claims).toMatchObject({ email: "optician@demo.test", given_name: "Olivia", aud: "demo-implicit" });

  // "id_token token": the access token comes along and works at userinfo.
  const both = oidc.buildAuthorizationUrl(implicit, {
    redirect_uri: "http://localhost:5174/callback",
    response_type: "id_token token",
    scope: "openid profile",
    nonce,
    state,
  });
  // Signed in and already consented to these scopes: OptiGate answers at once, without any page.
  const second = await redirectToClient(page, "http://localhost:5174", () =>
    page.goto(both.href).catch(() => undefined),
  );
  const fragment = new URLSearchParams(second.hash.slice(1));
  expect(fragment.get("refresh_token")).toBeNull();
  const userinfo = await oidc.fetchUserInfo(implicit, fragment.get("access_token")!, oidc.skipSubjectCheck);
  expect(userinfo.given_name).toBe("Olivia");
});
