import { prismaStores } from "@/lib/store/stores";
import { createHash } from "node:crypto";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { parseClientMetadata } from "@/lib/admin/client-metadata";
import { addClientSecret, disableClientSecret, registerClient } from "@/lib/admin/client-registry";
import {
  authorizeWithConsent,
  basic,
  call,
  demoWeb,
  formRequest,
  ISSUER,
  pkcePair,
  UserAgent,
  useOAuthService,
} from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const webParams = {
  client_id: demoWeb.client_id,
  redirect_uri: demoWeb.redirect_uri,
  response_type: "code",
  scope: "openid profile email platform.catalogs.read offline_access",
  state: "s",
  nonce: "n-123",
};
let agent: UserAgent;

beforeAll(() => {
  agent = new UserAgent();
});

const token = (form: Record<string, string>, headers: Record<string, string> = {}) =>
  call("token", formRequest("/connect/token", form, headers));
const redeem = (
  code: string,
  extra: Record<string, string> = {},
  headers: Record<string, string> = { Authorization: basic(demoWeb.client_id, demoWeb.secret) },
) => token({ grant_type: "authorization_code", code, redirect_uri: demoWeb.redirect_uri, ...extra }, headers);

async function jwks() {
  const { GET } = await import("@/app/.well-known/openid-configuration/jwks/route");
  return createLocalJWKSet(await (await GET(new Request(`${ISSUER}/jwks`))).json());
}

async function expectError(response: Response, status: number, error: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("cache-control")).toBe("no-store");
  const body = await response.json();
  expect(body.error).toBe(error);
  expect(typeof body.error_description).toBe("string");
}

describe(`POST /connect/token (authorization_code) on ${testProvider()}`, () => {
  it("issues access, ID and refresh tokens to a confidential client authenticating with Basic", async () => {
    const { code } = await authorizeWithConsent(agent, webParams);
    const response = await redeem(code);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("pragma")).toBe("no-cache");
    const body = await response.json();
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
    expect(body.scope).toBeUndefined(); // granted exactly what was asked
    expect(body.refresh_token).toMatch(/^[\w-]{43}$/);

    const keys = await jwks();
    const user = await service().database.db.user.findUniqueOrThrow({ where: { email: "optician@demo.test" } });
    const access = await jwtVerify(body.access_token, keys, { issuer: ISSUER, typ: "at+jwt" });
    expect(access.payload).toMatchObject({
      sub: user.id,
      aud: `${ISSUER}/resources`,
      client_id: "demo-web",
      scope: webParams.scope,
      company_id: user.companyId,
      role: "admin",
    });
    expect(access.payload.exp! - access.payload.iat!).toBe(3600);
    expect(typeof access.payload.jti).toBe("string");
    expect(typeof access.payload.auth_time).toBe("number");

    const id = await jwtVerify(body.id_token, keys, { issuer: ISSUER, audience: "demo-web", algorithms: ["RS256"] });
    expect(decodeProtectedHeader(body.id_token).alg).toBe("RS256");
    expect(id.payload).toMatchObject({ sub: user.id, nonce: "n-123", auth_time: access.payload.auth_time });
    expect(id.payload.at_hash).toBe(
      createHash("sha256").update(body.access_token).digest().subarray(0, 16).toString("base64url"),
    );
    const session = await service().database.db.loginSession.findFirstOrThrow({
      where: { userId: user.id },
      orderBy: { createdAt: "desc" },
    });
    expect(id.payload.sid).toBe(session.id);

    const stored = await service().database.db.refreshToken.findMany({ where: { clientId: "demo-web" } });
    expect(stored.map((t) => t.tokenHash)).toContain(
      createHash("sha256").update(body.refresh_token).digest("base64url"),
    );
  });

  it("accepts client_secret_post, names the granted scope when it differs, and leaves out refresh and nonce when not asked", async () => {
    const { code } = await authorizeWithConsent(agent, { ...webParams, nonce: "", prompt: "consent" }, [
      "openid",
      "profile",
    ]);
    const response = await redeem(code, { client_id: demoWeb.client_id, client_secret: demoWeb.secret }, {});
    const body = await response.json();
    expect(response.status).toBe(200);
    expect(body.scope).toBe("openid profile");
    expect(body.refresh_token).toBeUndefined();
    const id = await jwtVerify(body.id_token, await jwks(), { issuer: ISSUER });
    expect(id.payload.nonce).toBeUndefined();
  });

  it("redeems a public client's code with the PKCE verifier", async () => {
    const { verifier, challenge } = pkcePair();
    const params = {
      client_id: "demo-spa",
      redirect_uri: "http://localhost:5173/callback",
      response_type: "code",
      scope: "openid profile",
      state: "s",
      code_challenge: challenge,
      code_challenge_method: "S256",
    };
    const wrong = await authorizeWithConsent(agent, params);
    await expectError(
      await token({
        grant_type: "authorization_code",
        code: wrong.code,
        redirect_uri: params.redirect_uri,
        client_id: "demo-spa",
        code_verifier: pkcePair().verifier,
      }),
      400,
      "invalid_grant",
    );
    await expectError(
      await token({
        grant_type: "authorization_code",
        code: wrong.code,
        redirect_uri: params.redirect_uri,
        client_id: "demo-spa",
      }),
      400,
      "invalid_grant",
    );
    const { code } = await authorizeWithConsent(agent, params);
    const response = await token({
      grant_type: "authorization_code",
      code,
      redirect_uri: params.redirect_uri,
      client_id: "demo-spa",
      code_verifier: verifier,
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.id_token).toBeTruthy();
    expect(body.refresh_token).toBeUndefined();
  });

  it("refuses a second use of a code and revokes the refresh token issued from it", async () => {
    const { code } = await authorizeWithConsent(agent, webParams);
    const first = await (await redeem(code)).json();
    await expectError(await redeem(code), 400, "invalid_grant");
    const refresh = await service().database.db.refreshToken.findUniqueOrThrow({
      where: { tokenHash: createHash("sha256").update(first.refresh_token).digest("base64url") },
    });
    expect(refresh.revokedAt).not.toBeNull();
  });

  it("lets exactly one of several concurrent redemptions of a code succeed", async () => {
    const { code } = await authorizeWithConsent(agent, { ...webParams, scope: "openid profile" });
    const responses = await Promise.all(Array.from({ length: 6 }, () => redeem(code)));
    expect(responses.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
  });

  it("refuses an expired code, another client's code, a different redirect URI and a verifier without challenge", async () => {
    const db = service().database.db;
    const expired = await authorizeWithConsent(agent, { ...webParams, scope: "openid profile" });
    await db.authorizationCode.updateMany({
      where: { consumedAt: null },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await expectError(await redeem(expired.code), 400, "invalid_grant");

    const fresh = async () => (await authorizeWithConsent(agent, { ...webParams, scope: "openid profile" })).code;
    await expectError(
      await token(
        { grant_type: "authorization_code", code: await fresh(), redirect_uri: demoWeb.redirect_uri },
        { Authorization: basic("demo-backend", "demo-backend-secret") },
      ),
      400,
      "unauthorized_client",
    );
    await expectError(
      await redeem(await fresh(), { redirect_uri: "http://localhost:4000/other" }),
      400,
      "invalid_grant",
    );
    await expectError(await redeem(await fresh(), { code_verifier: pkcePair().verifier }), 400, "invalid_grant");
    await expectError(await redeem("no-such-code"), 400, "invalid_grant");
    // A failed attempt spends the code: it cannot be tried again with other parameters.
    const spent = await fresh();
    await expectError(await redeem(spent, { redirect_uri: "http://localhost:4000/other" }), 400, "invalid_grant");
    await expectError(await redeem(spent), 400, "invalid_grant");
    expect((await redeem(await fresh())).status).toBe(200);
  });

  it("refuses a code whose consent was revoked before redemption", async () => {
    const { code } = await authorizeWithConsent(agent, { ...webParams, scope: "openid profile" });
    const db = service().database.db;
    const user = await db.user.findUniqueOrThrow({ where: { email: "optician@demo.test" } });
    await prismaStores(db).consents.revoke(user.id, "demo-web");
    await expectError(await redeem(code), 400, "invalid_grant");
  });

  it("answers client authentication failures with 401 invalid_client, and WWW-Authenticate when Basic was used", async () => {
    const wrongBasic = await redeem("x", {}, { Authorization: basic("demo-web", "wrong") });
    await expectError(wrongBasic, 401, "invalid_client");
    expect(wrongBasic.headers.get("www-authenticate")).toMatch(/^Basic realm="OptiGate"/);
    const wrongPost = await token({
      grant_type: "authorization_code",
      code: "x",
      redirect_uri: demoWeb.redirect_uri,
      client_id: "demo-web",
      client_secret: "wrong",
    });
    await expectError(wrongPost, 401, "invalid_client");
    expect(wrongPost.headers.get("www-authenticate")).toBeNull();
    await expectError(
      await token({ grant_type: "authorization_code", code: "x", client_id: "demo-web" }),
      401,
      "invalid_client",
    );
    await expectError(
      await token({ grant_type: "authorization_code", code: "x", client_id: "nobody" }),
      401,
      "invalid_client",
    );
    await expectError(
      await token({ grant_type: "authorization_code", code: "x", client_id: "demo-spa", client_secret: "anything" }),
      401,
      "invalid_client",
    );
    await expectError(await token({ grant_type: "authorization_code", code: "x" }), 401, "invalid_client");
  });

  it("refuses a disabled or expired secret and decodes form-urlencoded Basic credentials", async () => {
    const db = service().database.db;
    const registration = parseClientMetadata(
      { client_id: "shop:east", redirect_uris: ["https://shop.example/cb"] },
      "platform",
    );
    await registerClient(prismaStores(db), registration, { value: "p@ss word+/%" });
    const authenticated = await token(
      { grant_type: "authorization_code", code: "unknown", redirect_uri: "https://shop.example/cb" },
      { Authorization: basic("shop:east", "p@ss word+/%") },
    );
    await expectError(authenticated, 400, "invalid_grant"); // authenticated; only the code is wrong
    const shopToken = (secret: string) =>
      token(
        { grant_type: "authorization_code", code: "unknown", redirect_uri: "https://shop.example/cb" },
        { Authorization: basic("shop:east", secret) },
      );

    const second = await addClientSecret(prismaStores(db), "shop:east");
    await expectError(await shopToken(second.secret), 400, "invalid_grant");
    await disableClientSecret(prismaStores(db), "shop:east", second.secretId);
    await expectError(await shopToken(second.secret), 401, "invalid_client");

    await db.clientSecret.updateMany({
      where: { clientId: "shop:east" },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const { forgetClient } = await import("@/lib/store/client-store");
    forgetClient("shop:east"); // the row was changed behind the registry's back
    await expectError(await shopToken("p@ss word+/%"), 401, "invalid_client");
  });

  it.each([
    [
      "both Basic and client_secret",
      {
        client_id: "demo-web",
        client_secret: demoWeb.secret,
        grant_type: "authorization_code",
        code: "x",
        redirect_uri: demoWeb.redirect_uri,
      },
      true,
      400,
      "invalid_request",
    ],
    ["a missing grant_type", { code: "x" }, true, 400, "invalid_request"],
    [
      "an unsupported grant_type",
      { grant_type: "password", username: "a", password: "b" },
      true,
      400,
      "unsupported_grant_type",
    ],
    [
      "a missing code",
      { grant_type: "authorization_code", redirect_uri: demoWeb.redirect_uri },
      true,
      400,
      "invalid_request",
    ],
    ["a missing redirect_uri", { grant_type: "authorization_code", code: "x" }, true, 400, "invalid_request"],
  ])("answers %s with %s", async (_name, form, useBasic, status, error) => {
    await expectError(
      await token(
        form as Record<string, string>,
        useBasic ? { Authorization: basic(demoWeb.client_id, demoWeb.secret) } : {},
      ),
      status,
      error,
    );
  });

  it("refuses bodies that are not form-encoded and repeated parameters", async () => {
    const json = new Request(`${ISSUER}/connect/token`, {
      method: "POST",
      body: JSON.stringify({ grant_type: "authorization_code" }),
      headers: { "Content-Type": "application/json" },
    });
    await expectError(await call("token", json), 400, "invalid_request");
    const repeated = new Request(`${ISSUER}/connect/token`, {
      method: "POST",
      body: "grant_type=authorization_code&code=a&code=b&redirect_uri=x",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Authorization: basic(demoWeb.client_id, demoWeb.secret),
      },
    });
    await expectError(await call("token", repeated), 400, "invalid_request");
  });
});

describe(`client authentication failures on ${testProvider()}`, () => {
  const clientCredentials = (authorization: string, address: string) =>
    call(
      "token",
      formRequest(
        "/connect/token",
        { grant_type: "client_credentials" },
        { authorization, "x-forwarded-for": address },
      ),
    );

  it("answers an unknown client and a wrong secret alike", async () => {
    const unknown = await clientCredentials(basic("no-such-client", "guess"), "192.0.2.10");
    const wrong = await clientCredentials(basic("demo-backend", "guess"), "192.0.2.10");
    expect([unknown.status, wrong.status]).toEqual([401, 401]);
    expect(await unknown.json()).toEqual(await wrong.json());
    const unknownPost = await call(
      "token",
      formRequest("/connect/token", { grant_type: "client_credentials", client_id: "no-such-client" }),
    );
    const missingSecret = await call(
      "token",
      formRequest("/connect/token", { grant_type: "client_credentials", client_id: "demo-backend" }),
    );
    expect(await unknownPost.json()).toEqual(await missingSecret.json());
  });

  it("locks a client id for an address after 10 wrong secrets, even for the right one, and not for other addresses", async () => {
    for (let attempt = 0; attempt < 10; attempt++)
      expect((await clientCredentials(basic("demo-backend", `wrong-${attempt}`), "192.0.2.20")).status).toBe(401);
    const locked = await clientCredentials(basic("demo-backend", "demo-backend-secret"), "192.0.2.20");
    expect(locked.status).toBe(401);
    expect((await locked.json()).error_description).toMatch(/too many failed client authentications/);
    expect((await clientCredentials(basic("demo-backend", "demo-backend-secret"), "192.0.2.21")).status).toBe(200);
    const row = await service().database.db.loginThrottle.findUniqueOrThrow({
      where: { key: "client:demo-backend@192.0.2.20" },
    });
    expect(row.lockedUntil!.getTime()).toBeGreaterThan(Date.now());
  });
});
