/**
 * PAR (RFC 9126) and DPoP (RFC 9449) end to end with oauth4webapi, over HTTP through OptiGate's own listener: a
 * public desktop app pushes its request with a DPoP proof, signs the user in by request_uri, redeems the code, calls
 * userinfo and the platform API and refreshes, all with one key; a confidential server web app does the same with
 * its secret. Then what a library must be refused: a bound token as a bearer token, a refresh with another key, a
 * request_uri used twice, expired or of another client, a pushed request_uri, and the nonce round trip.
 */
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "@/lib/config";
import { startHttpService, type HttpService } from "../../helpers/http-service";
import {
  basic,
  call,
  formRequest,
  interactionOf,
  ISSUER,
  returnUrlOf,
  UserAgent,
  useOAuthService,
} from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
let http: HttpService;
let as: oauth.AuthorizationServer;
const SCOPE = "openid profile email offline_access platform.catalogs.read";
const NATIVE = { client: { client_id: "demo-native" }, auth: oauth.None(), redirectUri: "com.example.demo:/callback" };
const WEB = {
  client: { client_id: "demo-web" },
  auth: oauth.ClientSecretBasic("demo-web-secret"),
  redirectUri: "http://localhost:4000/callback",
};
type App = typeof NATIVE | typeof WEB;

beforeAll(async () => {
  http = await startHttpService();
  const issuer = new URL(ISSUER);
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, options()));
});
afterAll(() => http.close());

function options(DPoP?: oauth.DPoPHandle) {
  return { [oauth.customFetch]: http.fetch, [oauth.allowInsecureRequests]: true, DPoP };
}

async function push(app: App, dpop?: oauth.DPoPHandle, extra: Record<string, string> = {}) {
  const verifier = oauth.generateRandomCodeVerifier();
  const [state, nonce] = [oauth.generateRandomState(), oauth.generateRandomNonce()];
  const parameters = {
    response_type: "code",
    redirect_uri: app.redirectUri,
    scope: SCOPE,
    state,
    nonce,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    ...extra,
  };
  const response = await oauth.pushedAuthorizationRequest(as, app.client, app.auth, parameters, options(dpop));
  const pushed = await oauth.processPushedAuthorizationResponse(as, app.client, response);
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({ client_id: app.client.client_id, request_uri: pushed.request_uri }).toString();
  return { url, state, nonce, verifier, pushed };
}

/** The demo optician signs in and allows every scope; returns where OptiGate sent the browser back to. */
async function signInAndAllow(agent: UserAgent, url: URL): Promise<URL> {
  let response = await agent.authorizeUrl(url.href);
  if (response.headers.get("location")?.startsWith("/login")) {
    response = await agent.login(returnUrlOf(response), "optician@demo.test", "Optician#2026");
    response = await agent.authorizeUrl(response.headers.get("location")!);
  }
  if (response.headers.get("location")?.startsWith("/consent"))
    response = await agent.consent(interactionOf(response), "allow", SCOPE.split(" "));
  expect([302, 303]).toContain(response.status);
  return new URL(response.headers.get("location")!);
}

async function signInWithDpop(
  app: App,
  dpop?: oauth.DPoPHandle,
  extra: Record<string, string> = {},
  agent = new UserAgent(),
) {
  const flow = await push(app, dpop, extra);
  const callback = await signInAndAllow(agent, flow.url);
  const parameters = oauth.validateAuthResponse(as, app.client, callback, flow.state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    app.client,
    app.auth,
    parameters,
    app.redirectUri,
    flow.verifier,
    options(dpop),
  );
  const tokens = await oauth.processAuthorizationCodeResponse(as, app.client, response, { expectedNonce: flow.nonce });
  return { flow, tokens, sub: oauth.getValidatedIdTokenClaims(tokens)!.sub };
}

const refresh = async (app: App, token: string, dpop?: oauth.DPoPHandle) =>
  oauth.processRefreshTokenResponse(
    as,
    app.client,
    await oauth.refreshTokenGrantRequest(as, app.client, app.auth, token, options(dpop)),
  );

const refused = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail("accepted"),
    (error: unknown) => error as oauth.ResponseBodyError,
  );

const dpopHandle = async (app: App) => oauth.DPoP(app.client as oauth.Client, await oauth.generateKeyPair("ES256"));

describe(`PAR and DPoP with oauth4webapi on ${testProvider()}`, () => {
  it("discovery names the PAR endpoint and the DPoP algorithms", () => {
    expect(as.pushed_authorization_request_endpoint).toBe(`${ISSUER}/connect/par`);
    expect(as.require_pushed_authorization_requests).toBe(false);
    expect(as.dpop_signing_alg_values_supported).toEqual(["ES256", "EdDSA", "RS256", "PS256"]);
  });

  it.each([
    ["public desktop app", NATIVE],
    ["confidential server web app", WEB],
  ])("%s: PAR, code, userinfo, API and refresh bound to one key", async (_name, app) => {
    const dpop = await dpopHandle(app);
    const { flow, tokens, sub } = await signInWithDpop(app, dpop);
    expect(flow.pushed.request_uri).toMatch(/^urn:ietf:params:oauth:request_uri:[\w-]{43}$/);
    expect(flow.pushed.expires_in).toBe(60);
    expect(tokens.token_type).toBe("dpop");

    const info = await oauth.processUserInfoResponse(
      as,
      app.client,
      sub,
      await oauth.userInfoRequest(as, app.client, tokens.access_token, options(dpop)),
    );
    expect(info.email).toBe("optician@demo.test");
    const api = await oauth.protectedResourceRequest(
      tokens.access_token,
      "GET",
      new URL(`${ISSUER}/v2/catalogs`),
      new Headers(),
      null,
      options(dpop),
    );
    expect(api.status).toBe(200);

    // The bound token as a bearer token, and a proof for one token used with another.
    const asBearer = await http.fetch(`${ISSUER}/connect/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(asBearer.status).toBe(401);
    expect(asBearer.headers.get("www-authenticate")).toMatch(/^DPoP error="invalid_token".*algs="ES256/);

    const refreshed = await refresh(app, tokens.refresh_token!, dpop);
    expect(refreshed.token_type).toBe("dpop");
    const otherKey = await dpopHandle(app);
    if (app === NATIVE) {
      // A public client's refresh token is bound: another key, or none, is refused.
      expect((await refused(refresh(app, refreshed.refresh_token!, otherKey))).error).toBe("invalid_grant");
      expect((await refused(refresh(app, refreshed.refresh_token!))).error).toBe("invalid_grant");
    } else {
      // A confidential client proves itself with its secret; its new access token is bound to the new key.
      expect((await refresh(app, refreshed.refresh_token!, otherKey)).token_type).toBe("dpop");
    }

    // The pushed request led to one response: the request_uri is spent.
    const again = await new UserAgent().authorizeUrl(flow.url.href);
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("request_uri");
  });

  it("binds a public client's refresh token from its first refresh with a proof", async () => {
    const { tokens } = await signInWithDpop(NATIVE);
    expect(tokens.token_type).toBe("bearer");
    const dpop = await dpopHandle(NATIVE);
    const bound = await refresh(NATIVE, tokens.refresh_token!, dpop);
    expect(bound.token_type).toBe("dpop");
    expect((await refused(refresh(NATIVE, bound.refresh_token!))).error).toBe("invalid_grant");
    expect((await refresh(NATIVE, bound.refresh_token!, dpop)).token_type).toBe("dpop");
  });

  it("lets a pushed request with prompt=login and max_age=0 finish after the fresh sign-in", async () => {
    const agent = new UserAgent();
    await agent.login("/", "optician@demo.test", "Optician#2026");
    const { sub } = await signInWithDpop(WEB, await dpopHandle(WEB), { prompt: "login", max_age: "0" }, agent);
    expect(sub).toBeTruthy();
  });

  it("refuses a proof for one token used with another (ath)", async () => {
    const dpop = await dpopHandle(NATIVE);
    const first = await signInWithDpop(NATIVE, dpop);
    const second = await refresh(NATIVE, first.tokens.refresh_token!, dpop);
    const response = await oauth.userInfoRequest(as, NATIVE.client, first.tokens.access_token, options(dpop));
    expect(response.status).toBe(200);
    const proofForSecond = (await captureProof(dpop, second.access_token)) as string;
    const crossed = await http.fetch(`${ISSUER}/connect/userinfo`, {
      headers: { authorization: `DPoP ${first.tokens.access_token}`, dpop: proofForSecond },
    });
    expect(crossed.status).toBe(401);
    expect(crossed.headers.get("www-authenticate")).toMatch(/error="invalid_dpop_proof".*ath/);
  });

  it("answers use_dpop_nonce with a nonce the library retries with, when REQUIRE_DPOP_NONCE is on", async () => {
    const config = getConfig();
    config.requireDpopNonce = true;
    try {
      const dpop = await dpopHandle(WEB);
      const first = await refused(
        oauth
          .clientCredentialsGrantRequest(
            as,
            { client_id: "demo-backend" },
            oauth.ClientSecretBasic("demo-backend-secret"),
            {},
            options(dpop),
          )
          .then((response) => oauth.processClientCredentialsResponse(as, { client_id: "demo-backend" }, response)),
      );
      expect(oauth.isDPoPNonceError(first)).toBe(true);
      const retried = await oauth.processClientCredentialsResponse(
        as,
        { client_id: "demo-backend" },
        await oauth.clientCredentialsGrantRequest(
          as,
          { client_id: "demo-backend" },
          oauth.ClientSecretBasic("demo-backend-secret"),
          {},
          options(dpop),
        ),
      );
      expect(retried.token_type).toBe("dpop");
    } finally {
      config.requireDpopNonce = false;
    }
  });

  it("refuses a request_uri that is another client's, expired, unknown or pushed itself", async () => {
    const flow = await push(NATIVE);
    const foreign = new URL(flow.url);
    foreign.searchParams.set("client_id", "demo-spa");
    expect((await new UserAgent().authorizeUrl(foreign.href)).status).toBe(400);

    await service().database.db.pushedAuthorizationRequest.updateMany({
      data: { expiresAt: new Date(Date.now() - 1) },
      where: { startedAt: null },
    });
    const expired = await new UserAgent().authorizeUrl(flow.url.href);
    expect(expired.status).toBe(400);
    expect(await expired.text()).toContain("expired");

    const oversized = await call(
      "par",
      formRequest("/connect/par", {
        client_id: "demo-native",
        response_type: "code",
        redirect_uri: NATIVE.redirectUri,
        scope: "openid",
        state: "s",
        code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
        code_challenge_method: "S256",
        login_hint: "x".repeat(20_000),
      }),
    );
    expect(oversized.status).toBe(400);
    expect(await oversized.json()).toMatchObject({
      error: "invalid_request",
      error_description: expect.stringContaining("at most"),
    });

    const pushedUri = await call(
      "par",
      formRequest("/connect/par", {
        client_id: "demo-native",
        request_uri: flow.pushed.request_uri,
        response_type: "code",
      }),
    );
    expect(pushedUri.status).toBe(400);
    expect(await pushedUri.json()).toMatchObject({ error: "invalid_request" });
  });

  it("checks the pushed request as an authorization request, and a client that requires PAR gets nothing else", async () => {
    const badScope = await call(
      "par",
      formRequest(
        "/connect/par",
        { response_type: "code", redirect_uri: WEB.redirectUri, scope: "openid unknown", state: "s" },
        { Authorization: basic("demo-web", "demo-web-secret") },
      ),
    );
    expect(badScope.status).toBe(400);
    expect(await badScope.json()).toMatchObject({ error: "invalid_scope" });
    const wrongSecret = await call(
      "par",
      formRequest("/connect/par", { response_type: "code" }, { Authorization: basic("demo-web", "wrong") }),
    );
    expect(wrongSecret.status).toBe(401);

    const config = getConfig();
    config.requirePar = true;
    try {
      const direct = await new UserAgent().authorize({
        client_id: "demo-web",
        redirect_uri: WEB.redirectUri,
        response_type: "code",
        scope: "openid",
        state: "s",
      });
      const sentBack = new URL(direct.headers.get("location")!);
      expect(sentBack.searchParams.get("error")).toBe("invalid_request");
      expect(sentBack.searchParams.get("error_description")).toContain("/connect/par");
    } finally {
      config.requirePar = false;
    }
  });
});

/** The proof oauth4webapi would send with `accessToken` to userinfo, caught on its way. */
async function captureProof(dpop: oauth.DPoPHandle, accessToken: string): Promise<string | null> {
  let proof: string | null = null;
  const catching = async (url: string, init: { headers?: HeadersInit }) => {
    proof = new Headers(init.headers).get("dpop");
    return new Response("{}", { status: 500 });
  };
  await oauth
    .userInfoRequest(as, NATIVE.client, accessToken, {
      [oauth.customFetch]: catching,
      [oauth.allowInsecureRequests]: true,
      DPoP: dpop,
    })
    .catch(() => undefined);
  return proof;
}
