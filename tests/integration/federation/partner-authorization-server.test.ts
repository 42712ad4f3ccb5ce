/**
 * A real third-party authorization server as the partner: node-oidc-provider on the loopback signs in a user through
 * its own authorization code flow (its development login and consent pages, driven over HTTP), issues an ES256 JWT
 * access token for OptiGate as resource, and publishes its keys at its jwks_uri. OptiGate exchanges that token
 * through both grants and the API accepts the result.
 */
import { prismaStores } from "@/lib/store/stores";
import { randomUUID, createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair } from "jose";
import Provider from "../../helpers/oidc-provider";
import { CookieBrowser, location } from "../../helpers/cookie-browser";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parseClientMetadata } from "@/lib/admin/client-metadata";
import { registerClient } from "@/lib/admin/client-registry";
import { addTrustedIssuer } from "@/lib/admin/federation-registry";
import { parseTrustedIssuer } from "@/lib/admin/trusted-issuer-metadata";
import { basic, call, formRequest, ISSUER, useOAuthService } from "../../helpers/oauth-service";
import { api } from "../../helpers/platform-api";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const REDIRECT_URI = "http://127.0.0.1:4999/callback";
const SCOPE = "platform.catalogs.read";
const USER = "optician@demo.test";

let server: Server;
let partnerIssuer: string;
let appSecret: string;

/** Signs USER in at the partner and returns the partner's JWT access token for OptiGate. */
async function partnerAccessToken(): Promise<string> {
  const browser = new CookieBrowser();
  const verifier = randomBytes(32).toString("base64url");
  const authorize = new URL(`${partnerIssuer}/auth`);
  Object.entries({
    client_id: "lens-portal",
    response_type: "code",
    redirect_uri: REDIRECT_URI,
    scope: `openid ${SCOPE}`,
    resource: ISSUER,
    state: "s",
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
  }).forEach(([name, value]) => authorize.searchParams.set(name, value));
  let response = await browser.get(authorize.href);
  const steps: Record<string, string>[] = [{ prompt: "login", login: USER }, { prompt: "consent" }];
  for (const step of steps) {
    const interaction = location(response, partnerIssuer);
    expect(interaction).toMatch(/\/interaction\//);
    response = await browser.post(interaction, step);
    response = await browser.get(location(response, partnerIssuer));
  }
  const callback = new URL(location(response, partnerIssuer));
  expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);
  const tokenResponse = await fetch(`${partnerIssuer}/token`, {
    method: "POST",
    headers: {
      authorization: basic("lens-portal", "lens-portal-secret"),
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: callback.searchParams.get("code")!,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      resource: ISSUER,
    }),
  });
  expect(tokenResponse.status).toBe(200);
  return (await tokenResponse.json()).access_token;
}

beforeAll(async () => {
  vi.spyOn(console, "warn").mockImplementation(() => undefined); // node-oidc-provider warns about its development pages
  vi.spyOn(console, "info").mockImplementation(() => undefined);
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  // The port first: the provider's issuer URL names it.
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  partnerIssuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(partnerIssuer, {
    clients: [
      {
        client_id: "lens-portal",
        client_secret: "lens-portal-secret",
        redirect_uris: [REDIRECT_URI],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        id_token_signed_response_alg: "ES256",
      },
    ],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: "partner-2026", alg: "ES256", use: "sig" }] },
    cookies: { keys: ["partner-cookie-key"] },
    scopes: ["openid", SCOPE],
    findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => ({ sub: id }) }),
    extraTokenClaims: async (_ctx, token) => ({
      email: (token as { accountId?: string }).accountId,
      email_verified: true,
    }),
    features: {
      devInteractions: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => ISSUER,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: SCOPE,
          audience: ISSUER,
          accessTokenFormat: "jwt",
          accessTokenTTL: 600,
          jwt: { sign: { alg: "ES256" } },
        }),
      },
    },
  });
  server.on("request", provider.callback());

  const db = service().database.db;
  const app = await registerClient(
    prismaStores(db),
    parseClientMetadata(
      {
        client_id: "lens-app",
        grant_types: ["urn:ietf:params:oauth:grant-type:jwt-bearer", "urn:ietf:params:oauth:grant-type:token-exchange"],
        scope: SCOPE,
      },
      "platform",
    ),
  );
  appSecret = app.secret!.secret;
  const discovery = await (await fetch(`${partnerIssuer}/.well-known/openid-configuration`)).json();
  await addTrustedIssuer(
    prismaStores(db),
    parseTrustedIssuer({
      issuer: discovery.issuer,
      jwks_uri: discovery.jwks_uri,
      clients: ["lens-app"],
      subject: "email",
      companies: ["demo-company-optician"],
    }),
  );
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

describe(`a node-oidc-provider partner on ${testProvider()}`, () => {
  it("issues a JWT access token for a signed-in user that OptiGate exchanges by jwt-bearer and by token exchange", async () => {
    const user = await service().database.db.user.findUniqueOrThrow({ where: { email: USER } });
    const grants: Record<string, string>[] = [
      { grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion: await partnerAccessToken() },
      {
        grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
        subject_token: await partnerAccessToken(),
        subject_token_type: "urn:ietf:params:oauth:token-type:access_token",
      },
    ];
    for (const form of grants) {
      const partnerToken = form.assertion ?? form.subject_token;
      expect(decodeProtectedHeader(partnerToken)).toMatchObject({ alg: "ES256", kid: "partner-2026", typ: "at+jwt" });
      expect(decodeJwt(partnerToken)).toMatchObject({
        iss: partnerIssuer,
        sub: USER,
        aud: ISSUER,
        email: USER,
        jti: expect.any(String),
      });
      const response = await call(
        "token",
        formRequest("/connect/token", form, { authorization: basic("lens-app", appSecret) }),
      );
      const body = await response.json();
      expect(response.status, JSON.stringify(body)).toBe(200);
      expect(decodeJwt(body.access_token)).toMatchObject({
        iss: ISSUER,
        sub: user.id,
        idp: partnerIssuer,
        client_id: "lens-app",
        scope: SCOPE,
      });
      expect((await api("GET", "/v2/catalogs?limit=1", { token: body.access_token })).response.status).toBe(200);
      // The partner's token is used up.
      expect(
        (await call("token", formRequest("/connect/token", form, { authorization: basic("lens-app", appSecret) })))
          .status,
      ).toBe(400);
    }
  });

  it("refuses the partner's token for a client the issuer does not allow", async () => {
    const other = await registerClient(
      prismaStores(service().database.db),
      parseClientMetadata(
        {
          client_id: `other-${randomUUID().slice(0, 8)}`,
          grant_types: ["urn:ietf:params:oauth:grant-type:jwt-bearer"],
          scope: SCOPE,
        },
        "platform",
      ),
    );
    const response = await call(
      "token",
      formRequest(
        "/connect/token",
        { grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion: await partnerAccessToken() },
        { authorization: basic(other.client.id, other.secret!.secret) },
      ),
    );
    expect(await response.json()).toMatchObject({
      error: "invalid_grant",
      error_description: expect.stringMatching(/is not an issuer this client may use/),
    });
  });
});
