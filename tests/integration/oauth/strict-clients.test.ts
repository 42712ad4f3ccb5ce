/**
 * Interop with strict relying-party libraries over HTTP: oauth4webapi drives the code flow with PKCE, userinfo, the
 * platform API, refresh and revocation for a confidential server web client, a public SPA and a native app on a
 * loopback port, and checks the access token as an RFC 9068 resource server would; openid-client (built on
 * oauth4webapi) validates the legacy implicit flow. These libraries refuse anything off-spec: a missing or wrong `iss`
 * in the authorization response, ID token claims, content types, `Cache-Control`, error bodies and `WWW-Authenticate`
 * challenges. The user's browser is the in-process user agent.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import * as oauth from "oauth4webapi";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpService, type HttpService } from "../../helpers/http-service";
import { interactionOf, ISSUER, returnUrlOf, UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

useOAuthService();
let http: HttpService;
let as: oauth.AuthorizationServer;
const CATALOGS = "platform.catalogs.read";

beforeAll(async () => {
  http = await startHttpService();
  const issuer = new URL(ISSUER);
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, options()));
});
afterAll(() => http.close());

function options(headers?: Record<string, string>) {
  return { [oauth.customFetch]: http.fetch, [oauth.allowInsecureRequests]: true, headers };
}

interface Flow {
  url: URL;
  state: string;
  nonce: string;
  verifier: string;
}

async function authorizationRequest(client: oauth.Client, redirectUri: string, scope: string): Promise<Flow> {
  const [state, nonce, verifier] = [
    oauth.generateRandomState(),
    oauth.generateRandomNonce(),
    oauth.generateRandomCodeVerifier(),
  ];
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: redirectUri,
    scope,
    state,
    nonce,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
  }).toString();
  return { url, state, nonce, verifier };
}

/** The demo optician signs in and allows what was asked; returns where OptiGate sent the browser back to. */
async function signInAndAllow(agent: UserAgent, url: URL): Promise<URL> {
  let response = await agent.authorizeUrl(url.href);
  if (response.headers.get("location")?.startsWith("/login")) {
    response = await agent.login(returnUrlOf(response), "optician@demo.test", "Optician#2026");
    response = await agent.authorizeUrl(response.headers.get("location")!);
  }
  if (response.headers.get("location")?.startsWith("/consent")) {
    response = await agent.consent(interactionOf(response), "allow", url.searchParams.get("scope")!.split(" "));
  }
  expect([302, 303]).toContain(response.status);
  return new URL(response.headers.get("location")!);
}

async function redeem(
  client: oauth.Client,
  auth: oauth.ClientAuth,
  flow: Flow,
  callback: URL,
  redirectUri: string,
  headers?: Record<string, string>,
) {
  const parameters = oauth.validateAuthResponse(as, client, callback, flow.state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    auth,
    parameters,
    redirectUri,
    flow.verifier,
    options(headers),
  );
  const result = await oauth.processAuthorizationCodeResponse(as, client, response, {
    expectedNonce: flow.nonce,
    requireIdToken: true,
  });
  return { result, claims: oauth.getValidatedIdTokenClaims(result)!, response };
}

async function userinfo(client: oauth.Client, accessToken: string, subject: string) {
  return oauth.processUserInfoResponse(
    as,
    client,
    subject,
    await oauth.userInfoRequest(as, client, accessToken, options()),
  );
}

async function catalogs(accessToken: string): Promise<Response> {
  return oauth.protectedResourceRequest(
    accessToken,
    "GET",
    new URL(`${ISSUER}/v2/catalogs`),
    new Headers(),
    null,
    options(),
  );
}

async function refresh(client: oauth.Client, auth: oauth.ClientAuth, refreshToken: string) {
  return oauth.processRefreshTokenResponse(
    as,
    client,
    await oauth.refreshTokenGrantRequest(as, client, auth, refreshToken, options()),
  );
}

async function revoke(client: oauth.Client, auth: oauth.ClientAuth, token: string) {
  return oauth.processRevocationResponse(await oauth.revocationRequest(as, client, auth, token, options()));
}

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail("the library accepted it"),
    (error: unknown) => error,
  );
}

describe(`strict relying parties over HTTP on ${testProvider()}`, () => {
  it("discovery satisfies oauth4webapi: issuer, endpoints and the iss authorization response parameter", () => {
    expect(as.issuer).toBe(ISSUER);
    expect(as.authorization_response_iss_parameter_supported).toBe(true);
    expect(as.code_challenge_methods_supported).toContain("S256");
  });

  it("server web app (confidential): code + PKCE, userinfo, API, refresh, revocation, and the refusals a library reads", async () => {
    const client: oauth.Client = { client_id: "demo-web" };
    const auth = oauth.ClientSecretBasic("demo-web-secret");
    const redirectUri = "http://localhost:4000/callback";
    const flow = await authorizationRequest(client, redirectUri, `openid profile email offline_access ${CATALOGS}`);
    const callback = await signInAndAllow(new UserAgent(), flow.url);
    expect(callback.searchParams.get("iss")).toBe(ISSUER);

    const { result, claims, response } = await redeem(client, auth, flow, callback, redirectUri);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect([claims.iss, claims.aud, claims.nonce]).toEqual([ISSUER, "demo-web", flow.nonce]);
    expect(result.token_type).toBe("bearer");
    expect(result.refresh_token).toBeTruthy();

    // A resource server holding the access token to RFC 9068 (typ at+jwt, required claims, signature from the JWKS).
    const presented = new Request(`${ISSUER}/v2/catalogs`, {
      headers: { authorization: `Bearer ${result.access_token}` },
    });
    const accessClaims = await oauth.validateJwtAccessToken(as, presented, `${ISSUER}/resources`, options());
    expect(accessClaims).toMatchObject({
      sub: claims.sub,
      client_id: "demo-web",
      scope: expect.stringContaining(CATALOGS),
    });

    expect(await userinfo(client, result.access_token, claims.sub)).toMatchObject({
      sub: claims.sub,
      name: "Olivia Optik",
      email: "optician@demo.test",
    });
    const listed = await catalogs(result.access_token);
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { items: { catalogId: string }[] }).items.map((item) => item.catalogId)).toContain(
      "catalog.xml",
    );

    const refreshed = await refresh(client, auth, result.refresh_token!);
    expect(refreshed.access_token).not.toBe(result.access_token);
    expect(oauth.getValidatedIdTokenClaims(refreshed)!.sub).toBe(claims.sub);

    await revoke(client, auth, result.refresh_token!);
    const afterRevocation = await refusal(refresh(client, auth, result.refresh_token!));
    expect(afterRevocation).toBeInstanceOf(oauth.ResponseBodyError);
    expect((afterRevocation as oauth.ResponseBodyError).error).toBe("invalid_grant");

    // The code was used: a second redemption is refused in the body a library reads.
    const replay = await refusal(redeem(client, auth, flow, callback, redirectUri));
    expect((replay as oauth.ResponseBodyError).error).toBe("invalid_grant");

    // A wrong secret: 401 with a Basic challenge, which oauth4webapi parses.
    const wrongSecret = await refusal(
      refresh(client, oauth.ClientSecretBasic("not-the-secret"), refreshed.refresh_token ?? result.refresh_token!),
    );
    expect(wrongSecret).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    expect((wrongSecret as oauth.WWWAuthenticateChallengeError).cause[0].scheme).toBe("basic");

    // A bearer token that is no token: the challenges of RFC 6750 at userinfo and at the API, parsed by the library.
    for (const call of [userinfo(client, "not-a-token", claims.sub), catalogs("not-a-token")]) {
      const challenge = await refusal(call);
      expect(challenge).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
      expect((challenge as oauth.WWWAuthenticateChallengeError).cause[0]).toMatchObject({
        scheme: "bearer",
        parameters: { error: "invalid_token" },
      });
    }
  });

  it("SPA (public, browser): code + PKCE with its CORS origin, and the refusals of what a browser client may not do", async () => {
    const client: oauth.Client = { client_id: "demo-spa", token_endpoint_auth_method: "none" };
    const auth = oauth.None();
    const redirectUri = "http://localhost:5173/callback";
    const flow = await authorizationRequest(client, redirectUri, `openid profile ${CATALOGS}`);
    const callback = await signInAndAllow(new UserAgent(), flow.url);

    const { result, claims, response } = await redeem(client, auth, flow, callback, redirectUri, {
      origin: "http://localhost:5173",
    });
    expect(response.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(result.refresh_token).toBeUndefined();
    expect((await userinfo(client, result.access_token, claims.sub)).sub).toBe(claims.sub);
    expect((await catalogs(result.access_token)).status).toBe(200);

    // Access tokens are JWTs that expire; revoking one is refused in RFC 7009's terms.
    const revocation = await refusal(revoke(client, auth, result.access_token));
    expect((revocation as oauth.ResponseBodyError).error).toBe("unsupported_token_type");

    // Browser clients are never offline: the authorization response says so, with iss, and the library reads it.
    const offline = await authorizationRequest(client, redirectUri, "openid offline_access");
    const denied = await signInAndAllow(new UserAgent(), offline.url);
    const error = await refusal(
      Promise.resolve().then(() => oauth.validateAuthResponse(as, client, denied, offline.state)),
    );
    expect(error).toBeInstanceOf(oauth.AuthorizationResponseError);
    expect((error as oauth.AuthorizationResponseError).error).toBe("invalid_scope");
  });

  it("native app (public): a loopback redirect on a port of its own, refresh and revocation", async () => {
    // The app listens on a free loopback port for the one redirect, as RFC 8252 §7.3 describes.
    let received: (url: URL) => void;
    const redirected = new Promise<URL>((resolve) => (received = resolve));
    const loopback = createServer((request, response) => {
      received(new URL(request.url!, `http://${request.headers.host}`));
      response.end("You may close this window.");
    });
    await new Promise<void>((resolve) => loopback.listen(0, "127.0.0.1", resolve));
    const redirectUri = `http://127.0.0.1:${(loopback.address() as AddressInfo).port}/callback`;
    try {
      const client: oauth.Client = { client_id: "demo-native", token_endpoint_auth_method: "none" };
      const auth = oauth.None();
      const flow = await authorizationRequest(client, redirectUri, `openid profile offline_access ${CATALOGS}`);
      const location = await signInAndAllow(new UserAgent(), flow.url);
      expect((await fetch(location)).status).toBe(200);
      const callback = await redirected;

      const { result, claims } = await redeem(client, auth, flow, callback, redirectUri);
      expect(claims.aud).toBe("demo-native");
      const refreshed = await refresh(client, auth, result.refresh_token!);
      expect(refreshed.access_token).toBeTruthy();
      const current = refreshed.refresh_token ?? result.refresh_token!;
      await revoke(client, auth, current);
      expect(((await refusal(refresh(client, auth, current))) as oauth.ResponseBodyError).error).toBe("invalid_grant");
    } finally {
      await new Promise<void>((resolve) => loopback.close(() => resolve()));
    }
  });

  it("legacy browser app (implicit): openid-client validates the ID token from the fragment against the JWKS", async () => {
    const config = new oidc.Configuration(as as oidc.ServerMetadata, "demo-implicit");
    config[oidc.customFetch] = http.fetch;
    oidc.allowInsecureRequests(config);
    oidc.useIdTokenResponseType(config);
    const [state, nonce] = [oidc.randomState(), oidc.randomNonce()];
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: "http://localhost:5174/callback",
      scope: "openid profile",
      state,
      nonce,
    });
    const callback = await signInAndAllow(new UserAgent(), url);
    expect(callback.hash).toContain("id_token=");

    const claims = await oidc.implicitAuthentication(config, callback, nonce, { expectedState: state });
    expect([claims.iss, claims.aud, claims.nonce]).toEqual([ISSUER, "demo-implicit", nonce]);

    // The same response with another nonce is refused: the library checks what it sent.
    await expect(
      oidc.implicitAuthentication(config, callback, oidc.randomNonce(), { expectedState: state }),
    ).rejects.toMatchObject({ cause: { cause: { claim: "nonce" } } });
  });
});
