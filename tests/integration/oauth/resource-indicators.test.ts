/**
 * RFC 8707 resource indicators: `resource` on authorize, PAR and the token endpoint (code, refresh, client
 * credentials), matched against the resource servers a client may reach (OptiGate's platform API and catalog
 * services, and what the operator allowed it); the access token's `aud` is exactly the resource, `invalid_target`
 * otherwise, and a request without one keeps the default audience. OptiGate's own resource servers take only their
 * own audience (and the default one). The PAR flow runs through oauth4webapi, which also checks `aud` as a resource
 * server would.
 */
import * as oauth from "oauth4webapi";
import { decodeJwt } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { parseClientMetadata } from "@/lib/admin/client-metadata";
import { registerClient } from "@/lib/admin/client-registry";
import { prismaStores } from "@/lib/store/stores";
import {
  basic,
  call,
  callbackParams,
  formRequest,
  interactionOf,
  ISSUER,
  returnUrlOf,
  UserAgent,
  useOAuthService,
} from "../../helpers/oauth-service";
import { api } from "../../helpers/platform-api";
import { routeFetch } from "../../helpers/route-fetch";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const READ = "platform.catalogs.read";
/** API_URL is PUBLIC_URL in the tests. */
const PLATFORM_API = ISSUER;
const CATALOG_SERVICES = `${ISSUER}/services`;
const DEFAULT_AUDIENCE = `${ISSUER}/resources`;
const PARTNER_API = "https://orders.partner.example/api";
const REDIRECT_URI = "http://localhost:4100/callback";
const SCOPE = `openid offline_access ${READ}`;
const secrets: Record<string, string> = {};

beforeAll(async () => {
  const stores = prismaStores(service().database.db);
  const clients = {
    "ri-web": {
      redirect_uris: [REDIRECT_URI],
      scope: SCOPE,
      offline_access: true,
      refresh_token_policy: "rotate",
      allowed_resources: [PARTNER_API],
    },
    "ri-backend": { grant_types: ["client_credentials"], scope: READ, allowed_resources: [PARTNER_API] },
  };
  for (const [client_id, metadata] of Object.entries(clients)) {
    const { secret } = await registerClient(stores, parseClientMetadata({ client_id, ...metadata }, "platform"));
    secrets[client_id] = secret!.secret;
  }
});

const tokenRequest = (clientId: string, form: Record<string, string | string[]>) =>
  call("token", formRequest("/connect/token", form, { authorization: basic(clientId, secrets[clientId]) }));

async function tokenOf(clientId: string, form: Record<string, string | string[]>) {
  const response = await tokenRequest(clientId, form);
  const body = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body as { access_token: string; refresh_token?: string };
}

async function refusedAt(clientId: string, form: Record<string, string | string[]>) {
  const response = await tokenRequest(clientId, form);
  expect(response.status).toBe(400);
  return (await response.json()) as { error: string; error_description: string };
}

const audienceOf = (token: string) => decodeJwt(token).aud;
const credentials = (resource?: string | string[]) => ({
  grant_type: "client_credentials",
  ...(resource === undefined ? {} : { resource }),
});

/** The authorization request's query, with `resource` once for each resource named. */
function authorizeUrl(resources: string[], extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({
    client_id: "ri-web",
    redirect_uri: REDIRECT_URI,
    response_type: "code",
    scope: SCOPE,
    state: "st",
    ...extra,
  });
  for (const resource of resources) query.append("resource", resource);
  return `/connect/authorize?${query}`;
}

/** The demo optician signs in and allows everything asked; where OptiGate sent the browser back to. */
async function signInAndAllow(url: string, agent = new UserAgent()): Promise<Response> {
  let response = await agent.authorizeUrl(url);
  if (response.headers.get("location")?.startsWith("/login")) {
    response = await agent.login(returnUrlOf(response), "optician@demo.test", "Optician#2026");
    response = await agent.authorizeUrl(response.headers.get("location")!);
  }
  if (response.headers.get("location")?.startsWith("/consent"))
    response = await agent.consent(interactionOf(response), "allow", SCOPE.split(" "));
  return response;
}

async function codeFor(resources: string[]): Promise<string> {
  const code = callbackParams(await signInAndAllow(authorizeUrl(resources))).get("code");
  expect(code).toBeTruthy();
  return code!;
}

const redeem = (code: string, resource?: string) => ({
  grant_type: "authorization_code",
  code,
  redirect_uri: REDIRECT_URI,
  ...(resource ? { resource } : {}),
});

describe(`resource indicators at the token endpoint on ${testProvider()}`, () => {
  it("gives client credentials exactly the resource asked for, and the default audience without one", async () => {
    for (const resource of [PARTNER_API, PLATFORM_API, CATALOG_SERVICES])
      expect(audienceOf((await tokenOf("ri-backend", credentials(resource))).access_token)).toBe(resource);
    expect(audienceOf((await tokenOf("ri-backend", credentials())).access_token)).toBe(DEFAULT_AUDIENCE);
    // The same resource twice is one resource.
    const twice = await tokenOf("ri-backend", credentials([PARTNER_API, PARTNER_API]));
    expect(audienceOf(twice.access_token)).toBe(PARTNER_API);
  });

  it("refuses with invalid_target a resource not allowed, malformed, with a fragment, or several different", async () => {
    for (const resource of [
      "https://elsewhere.example/api",
      "https://orders.partner.example/api/",
      "/v2",
      "not a uri",
      `${PARTNER_API}#orders`,
      [PARTNER_API, PLATFORM_API],
    ]) {
      const refusal = await refusedAt("ri-backend", credentials(resource));
      expect(refusal.error, JSON.stringify(resource)).toBe("invalid_target");
    }
    // demo-backend was given no partner API: OptiGate's own resource servers only.
    const response = await call(
      "token",
      formRequest("/connect/token", credentials(PARTNER_API), {
        authorization: basic("demo-backend", "demo-backend-secret"),
      }),
    );
    expect([response.status, (await response.json()).error]).toEqual([400, "invalid_target"]);
  });

  it("lets OptiGate's resource servers take only tokens for them or with the default audience", async () => {
    const status = async (resource?: string) =>
      (await api("GET", "/v2/catalogs", { token: (await tokenOf("ri-backend", credentials(resource))).access_token }))
        .response.status;
    expect(await status()).toBe(200);
    expect(await status(PLATFORM_API)).toBe(200);
    expect(await status(PARTNER_API)).toBe(401);
    expect(await status(CATALOG_SERVICES)).toBe(401);
    const refused = await api("GET", "/v2/catalogs", {
      token: (await tokenOf("ri-backend", credentials(PARTNER_API))).access_token,
    });
    expect(refused.response.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
    expect(refused.body.detail).toMatch(/another resource server/);
    // The API's OpenAPI document names the audiences it takes, and the catalog services' resource.
    const { description } = (await api("GET", "/v2/openapi.json")).body.info;
    for (const named of [`resource=${PLATFORM_API} `, DEFAULT_AUDIENCE, CATALOG_SERVICES])
      expect(description).toContain(named);
  });

  it("shows the audience at introspection", async () => {
    const { access_token } = await tokenOf("ri-backend", credentials(PARTNER_API));
    const response = await call(
      "introspect",
      formRequest(
        "/connect/introspect",
        { token: access_token },
        { authorization: basic("ri-backend", secrets["ri-backend"]) },
      ),
    );
    expect(await response.json()).toMatchObject({ active: true, aud: PARTNER_API, client_id: "ri-backend" });
  });
});

describe(`resource indicators in the code flow on ${testProvider()}`, () => {
  it("grants the resources named at authorize, narrows the code's token to one and a refresh to another", async () => {
    const code = await codeFor([PARTNER_API, CATALOG_SERVICES]);
    const tokens = await tokenOf("ri-web", redeem(code, PARTNER_API));
    expect(audienceOf(tokens.access_token)).toBe(PARTNER_API);
    // The refresh token keeps the whole grant: a refresh narrows to any one of its resources, no other.
    const refused = await refusedAt("ri-web", {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token!,
      resource: PLATFORM_API,
    });
    expect(refused.error).toBe("invalid_target");
    expect(
      (await refusedAt("ri-web", { grant_type: "refresh_token", refresh_token: tokens.refresh_token! })).error,
    ).toBe("invalid_target");
    // Refused refreshes did not rotate the token out.
    const refreshed = await tokenOf("ri-web", {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token!,
      resource: CATALOG_SERVICES,
    });
    expect(audienceOf(refreshed.access_token)).toBe(CATALOG_SERVICES);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    const again = await tokenOf("ri-web", {
      grant_type: "refresh_token",
      refresh_token: refreshed.refresh_token!,
      resource: PARTNER_API,
    });
    expect(audienceOf(again.access_token)).toBe(PARTNER_API);
  });

  it("gives the token the only resource named when the token request names none, and refuses one not granted", async () => {
    const tokens = await tokenOf("ri-web", redeem(await codeFor([CATALOG_SERVICES])));
    expect(audienceOf(tokens.access_token)).toBe(CATALOG_SERVICES);
    // A catalog services token gets a catalog ticket; the platform API and userinfo refuse it.
    const { POST: silentLogin } = await import("@/app/services/login/SilentLogin/route");
    const ticket = async (token: string) =>
      (await silentLogin(formRequest("/services/login/SilentLogin", {}, { authorization: `Bearer ${token}` }))).status;
    expect(await ticket(tokens.access_token)).toBe(200);
    expect((await api("GET", "/v2/catalogs", { token: tokens.access_token })).response.status).toBe(401);
    const userinfo = await call(
      "userinfo",
      new Request(`${ISSUER}/connect/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } }),
    );
    expect(userinfo.status).toBe(401);

    const refusal = await refusedAt("ri-web", redeem(await codeFor([CATALOG_SERVICES]), PARTNER_API));
    expect(refusal.error).toBe("invalid_target");
    const several = await refusedAt("ri-web", redeem(await codeFor([CATALOG_SERVICES, PARTNER_API])));
    expect(several).toMatchObject({ error: "invalid_target", error_description: expect.stringMatching(/several/) });
  });

  it("keeps the default audience without resources, usable at userinfo and the platform API", async () => {
    const tokens = await tokenOf("ri-web", redeem(await codeFor([])));
    expect(audienceOf(tokens.access_token)).toBe(DEFAULT_AUDIENCE);
    expect((await api("GET", "/v2/catalogs", { token: tokens.access_token })).response.status).toBe(200);
    const userinfo = await call(
      "userinfo",
      new Request(`${ISSUER}/connect/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } }),
    );
    expect(userinfo.status).toBe(200);
    // Without resources at authorize, the token request may name any resource the client may reach.
    const named = await tokenOf("ri-web", redeem(await codeFor([]), PLATFORM_API));
    expect(audienceOf(named.access_token)).toBe(PLATFORM_API);
    expect((await api("GET", "/v2/catalogs", { token: named.access_token })).response.status).toBe(200);
    const { POST: silentLogin } = await import("@/app/services/login/SilentLogin/route");
    const ticket = await silentLogin(
      formRequest("/services/login/SilentLogin", {}, { authorization: `Bearer ${named.access_token}` }),
    );
    expect(ticket.status).toBe(401);
  });

  it("sends invalid_target to the redirect URI for a resource not allowed, malformed or with a fragment", async () => {
    const agent = new UserAgent();
    for (const resource of ["https://elsewhere.example/api", "relative/path", `${PARTNER_API}#x`]) {
      const response = await signInAndAllow(authorizeUrl([resource]), agent);
      const location = new URL(response.headers.get("location")!);
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
      expect([location.searchParams.get("error"), location.searchParams.get("state")]).toEqual([
        "invalid_target",
        "st",
      ]);
    }
  });

  it("refuses more than one resource where the authorization endpoint itself issues the access token", async () => {
    const query = new URLSearchParams({
      client_id: "demo-implicit",
      redirect_uri: "http://localhost:5174/callback",
      response_type: "token",
      scope: "openid",
      state: "st",
      nonce: "n",
    });
    query.append("resource", PLATFORM_API);
    query.append("resource", CATALOG_SERVICES);
    const response = await signInAndAllow(`/connect/authorize?${query}`);
    expect(callbackParams(response).get("error")).toBe("invalid_target");
    query.delete("resource");
    query.append("resource", CATALOG_SERVICES);
    const single = callbackParams(await signInAndAllow(`/connect/authorize?${query}`));
    expect(audienceOf(single.get("access_token")!)).toBe(CATALOG_SERVICES);
  });
});

describe(`resource indicators with PAR and oauth4webapi on ${testProvider()}`, () => {
  const client = { client_id: "ri-web" };
  const options = { [oauth.customFetch]: routeFetch, [oauth.allowInsecureRequests]: true };
  let as: oauth.AuthorizationServer;
  let auth: oauth.ClientAuth;
  beforeAll(async () => {
    const issuer = new URL(ISSUER);
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, options));
    auth = oauth.ClientSecretBasic(secrets["ri-web"]);
  });

  /** What a resource server does with a token (RFC 9068): oauth4webapi checks `aud` against its own identifier. */
  const presented = (token: string) =>
    new Request(`${PARTNER_API}/orders`, { headers: { authorization: `Bearer ${token}` } });

  it("pushes several resources, redeems the code for one and refreshes for another", async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const parameters = new URLSearchParams({
      redirect_uri: REDIRECT_URI,
      response_type: "code",
      scope: SCOPE,
      state: "par-state",
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    });
    parameters.append("resource", PARTNER_API);
    parameters.append("resource", PLATFORM_API);
    const pushed = await oauth.processPushedAuthorizationResponse(
      as,
      client,
      await oauth.pushedAuthorizationRequest(as, client, auth, parameters, options),
    );
    const query = new URLSearchParams({ client_id: client.client_id, request_uri: pushed.request_uri });
    const callback = new URL((await signInAndAllow(`/connect/authorize?${query}`)).headers.get("location")!);
    const code = oauth.validateAuthResponse(as, client, callback, "par-state");
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, auth, code, REDIRECT_URI, verifier, {
        ...options,
        additionalParameters: { resource: PARTNER_API },
      }),
    );
    expect(await oauth.validateJwtAccessToken(as, presented(tokens.access_token), PARTNER_API, options)).toMatchObject({
      aud: PARTNER_API,
      client_id: "ri-web",
    });
    await expect(
      oauth.validateJwtAccessToken(as, presented(tokens.access_token), PLATFORM_API, options),
    ).rejects.toThrow();

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, {
        ...options,
        additionalParameters: { resource: PLATFORM_API },
      }),
    );
    expect(audienceOf(refreshed.access_token)).toBe(PLATFORM_API);
    expect((await api("GET", "/v2/catalogs", { token: refreshed.access_token })).response.status).toBe(200);
  });

  it("answers a push with a resource the client may not reach with invalid_target", async () => {
    const parameters = new URLSearchParams({
      redirect_uri: REDIRECT_URI,
      response_type: "code",
      scope: SCOPE,
      state: "s",
      code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
      code_challenge_method: "S256",
      resource: "https://elsewhere.example/api",
    });
    const response = await oauth.pushedAuthorizationRequest(as, client, auth, parameters, options);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe("invalid_target");
  });
});
