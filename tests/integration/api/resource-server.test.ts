/**
 * The platform API as a resource server: which tokens it accepts (RFC 6750 errors, RFC 9457 bodies), the scope per
 * route, the company rule from the user's current record, CORS, and its OpenAPI document.
 */
import { prismaStores } from "@/lib/store/stores";
import { Validator } from "@seriousme/openapi-schema-validator";
import { serviceContextFor } from "@/lib/service-context";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { parseClientMetadata } from "@/lib/admin/client-metadata";
import { registerClient, removeClient } from "@/lib/admin/client-registry";
import { loadConfig } from "@/lib/config";
import { signAccessToken } from "@/lib/oauth/token/jwt-tokens";
import { call, ISSUER, useOAuthService } from "../../helpers/oauth-service";
import { api, clientToken, DOCUMENT, userTokens } from "../../helpers/platform-api";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const READ = "platform.catalogs.read";

async function expectInvalidToken(token: string | undefined, headers: Record<string, string> = {}) {
  const { response, body } = await api("GET", "/v2/catalogs", { token, headers });
  expect(response.status).toBe(401);
  expect(response.headers.get("www-authenticate")).toMatch(/^Bearer realm="OptiGate", error="invalid_token"/);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  expect(body).toMatchObject({ type: "urn:optigate:problem:invalid-token", status: 401 });
  return body.detail as string;
}

/** A token signed with OptiGate's active key, with the given changes to a valid access token's header and claims. */
async function forged(changes: { header?: Record<string, unknown>; claims?: Record<string, unknown> }) {
  const { activeKey } = await import("@/lib/oauth/keys/signing-keys");
  const { signJwt } = await import("@/lib/oauth/keys/jwt-signer");
  const { getServiceContext } = await import("@/lib/service-context");
  const context = getServiceContext();
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    iss: ISSUER,
    sub: "demo-backend",
    aud: `${ISSUER}/resources`,
    client_id: "demo-backend",
    scope: READ,
    iat: now,
    exp: now + 600,
    jti: crypto.randomUUID(),
    ...changes.claims,
  };
  return signJwt(
    claims,
    activeKey(await context.stores.signingKeys.keySet(context.config.secretKey), "RS256"),
    (changes.header?.typ as string) ?? "at+jwt",
  );
}

describe(`the platform API's resource server on ${testProvider()}`, () => {
  it("accepts an access token from the Authorization header only", async () => {
    const token = await clientToken("demo-backend", "demo-backend-secret", READ);
    expect((await api("GET", "/v2/catalogs", { token })).response.status).toBe(200);
    expect(await expectInvalidToken(undefined)).toMatch(/Authorization header/);
    await expectInvalidToken(undefined, { authorization: `Basic ${token}` });
    expect((await api("GET", `/v2/catalogs?access_token=${token}`)).response.status).toBe(401);
    await expectInvalidToken("not a token");
    await expectInvalidToken(`${token}x`);
  });

  it("refuses ID tokens, refresh tokens, logout tokens, other audiences, other issuers and expired tokens (60 s of leeway)", async () => {
    const tokens = await userTokens("optician@demo.test", "Optician#2026", `openid offline_access ${READ}`);
    await expectInvalidToken(tokens.id_token);
    await expectInvalidToken(tokens.refresh_token);
    await expectInvalidToken(
      await forged({
        header: { typ: "logout+jwt" },
        claims: { events: { "http://schemas.openid.net/event/backchannel-logout": {} } },
      }),
    );
    await expectInvalidToken(await forged({ claims: { aud: "demo-web" } }));
    await expectInvalidToken(await forged({ claims: { iss: "https://elsewhere.example" } }));
    const now = Math.floor(Date.now() / 1000);
    expect(
      (await api("GET", "/v2/catalogs", { token: await forged({ claims: { exp: now - 30 } }) })).response.status,
    ).toBe(200);
    await expectInvalidToken(await forged({ claims: { exp: now - 90 } }));
    // Signed by another key that claims OptiGate's issuer.
    const { privateKey, publicKey } = await generateKeyPair("RS256");
    const kid = (await exportJWK(publicKey)).n!.slice(0, 8);
    const foreign = await new SignJWT({ client_id: "demo-backend", scope: READ })
      .setProtectedHeader({ alg: "RS256", typ: "at+jwt", kid })
      .setIssuer(ISSUER)
      .setSubject("demo-backend")
      .setAudience(`${ISSUER}/resources`)
      .setIssuedAt()
      .setExpirationTime("10m")
      .sign(privateKey);
    await expectInvalidToken(foreign);
  });

  it("checks the expiry of a token whose signature it already checked on every use", async () => {
    const { verifyAccessToken } = await import("@/lib/oauth/token/verify-access-token");
    const { getServiceContext } = await import("@/lib/service-context");
    const token = await clientToken("demo-backend", "demo-backend-secret", READ);
    const verify = (options: { leewaySeconds?: number; now?: Date }) =>
      verifyAccessToken(getServiceContext(), token, { audiences: [`${ISSUER}/resources`], ...options });
    const claims = await verify({ leewaySeconds: 60 });
    expect((await verify({ leewaySeconds: 60 })).jti).toBe(claims.jti);
    const later = (seconds: number) => new Date((claims.exp! + seconds) * 1000);
    expect((await verify({ leewaySeconds: 60, now: later(59) })).jti).toBe(claims.jti);
    await expect(verify({ leewaySeconds: 60, now: later(61) })).rejects.toThrow(/invalid or has expired/);
    await expect(verify({ now: later(1) })).rejects.toThrow(/invalid or has expired/);
  });

  it("answers a token without the route's scope with 403 insufficient_scope naming the scope", async () => {
    const token = await clientToken("demo-backend", "demo-backend-secret", "platform.supplierreg.readwrite");
    const { response, body } = await api("GET", "/v2/catalogs", { token });
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer realm="OptiGate", error="insufficient_scope", scope="${READ}"`,
    );
    expect(body).toMatchObject({
      type: "urn:optigate:problem:insufficient-scope",
      title: expect.any(String),
      status: 403,
      detail: expect.stringContaining(READ),
    });
    const catalogsOnly = await clientToken("demo-backend", "demo-backend-secret", READ);
    expect(
      (await api("GET", "/v2/supplierregistrations", { token: catalogsOnly })).response.headers.get("www-authenticate"),
    ).toContain('scope="platform.supplierreg.read"');
  });

  it("reads the user's company and state now, not from the token", async () => {
    const db = service().database.db;
    const token = (await userTokens("optician@demo.test", "Optician#2026", `${READ} platform.supplierreg.read`))
      .access_token;
    const before = await api("GET", "/v2/supplierregistrations", { token });
    expect(before.body.items.map((r: any) => r.opticianCompanyId)).toEqual(["demo-company-optician"]);
    const lensCatalog = (await api("GET", "/v2/catalogs?supplierId=DLAG", { token })).body.items[0];
    expect(lensCatalog.registration).toEqual({ clientId: "100234", subscriptionStatus: expect.any(String) });

    const other = await db.company.create({ data: { name: "Another optician", kind: "eye_care_professional" } });
    await db.user.update({ where: { email: "optician@demo.test" }, data: { companyId: other.id } });
    try {
      expect((await api("GET", "/v2/supplierregistrations", { token })).body.items).toEqual([]);
      expect((await api("GET", "/v2/catalogs?supplierId=DLAG", { token })).body.items[0].registration).toBeNull();
    } finally {
      await db.user.update({ where: { email: "optician@demo.test" }, data: { companyId: "demo-company-optician" } });
    }
    await db.user.update({ where: { email: "optician@demo.test" }, data: { active: false } });
    try {
      expect(await expectInvalidToken(token)).toMatch(/no longer active/);
    } finally {
      await db.user.update({ where: { email: "optician@demo.test" }, data: { active: true } });
    }
  });

  it("refuses a user's token at once when its client was removed, here and at userinfo and SilentLogin", async () => {
    const db = service().database.db;
    await registerClient(
      prismaStores(db),
      parseClientMetadata(
        { client_id: "soon-removed", redirect_uris: ["https://app.example/cb"], scope: `openid ${READ}` },
        "platform",
      ),
    );
    const user = await db.user.findUniqueOrThrow({
      where: { email: "optician@demo.test" },
      include: { company: true },
    });
    const context = serviceContextFor(prismaStores(db), loadConfig());
    const token = await signAccessToken(
      context,
      { clientId: "soon-removed", scopes: ["openid", READ], user, authTime: new Date() },
      new Date(),
    );
    expect((await api("GET", "/v2/catalogs", { token })).response.status).toBe(200);
    await removeClient(prismaStores(db), "soon-removed");
    expect(await expectInvalidToken(token)).toMatch(/client of this access token is no longer registered/);
    expect(
      (
        await call(
          "userinfo",
          new Request(`${ISSUER}/connect/userinfo`, { headers: { authorization: `Bearer ${token}` } }),
        )
      ).status,
    ).toBe(401);
    const { POST } = await import("@/app/services/login/SilentLogin/route");
    expect(
      (
        await POST(
          new Request(`${ISSUER}/services/login/SilentLogin`, {
            method: "POST",
            headers: { authorization: `Bearer ${token}` },
          }),
        )
      ).status,
    ).toBe(401);
  });

  it("answers HEAD as GET without a body", async () => {
    const token = await clientToken("demo-backend", "demo-backend-secret", READ);
    const { HEAD } = await import("@/app/v2/[...path]/route");
    for (const path of [
      "/v2/catalogs?limit=1",
      "/v2/openapi.json",
      "/v2/catalogs/DLAG/catalog.xml/revisions/2/articles",
    ]) {
      const get = await api("GET", path, { token });
      const head = await HEAD(
        new Request(`${ISSUER}${path}`, { method: "HEAD", headers: { authorization: `Bearer ${token}` } }),
      );
      expect([head.status, head.headers.get("content-type"), await head.text()], path).toEqual([
        200,
        get.response.headers.get("content-type"),
        "",
      ]);
    }
    const anonymous = await HEAD(new Request(`${ISSUER}/v2/catalogs`, { method: "HEAD" }));
    expect([anonymous.status, anonymous.headers.get("www-authenticate")]).toEqual([
      401,
      expect.stringMatching(/^Bearer/),
    ]);
  });

  it("answers unknown paths with 404 and other methods with 405 and Allow, as problems", async () => {
    const token = await clientToken("demo-backend", "demo-backend-secret", READ);
    const missing = await api("GET", "/v2/nothing/here", { token });
    expect(missing.response.status).toBe(404);
    const wrong = await api("DELETE", "/v2/catalogs", { token });
    expect(wrong.response.status).toBe(405);
    expect(wrong.response.headers.get("allow")).toBe("GET, HEAD");
    expect((await api("PUT", "/v2/supplierregistrations/x", { token })).response.headers.get("allow")).toBe(
      "GET, HEAD, PATCH",
    );
    expect((await api("GET", "/v2/catalogs/%E0%A4%A", { token })).response.status).toBe(404);
  });

  it("lets registered browser origins call it (CORS), and no others", async () => {
    const preflight = await api("OPTIONS", "/v2/supplierregistrations/x", {
      headers: { origin: "http://localhost:5173", "access-control-request-method": "PATCH" },
    });
    expect(preflight.response.status).toBe(204);
    expect(preflight.response.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(preflight.response.headers.get("access-control-allow-methods")).toBe("GET, PATCH, OPTIONS");
    expect(preflight.response.headers.get("access-control-allow-headers")).toContain("If-Match");
    expect(
      (await api("OPTIONS", "/v2/catalogs", { headers: { origin: "https://evil.example" } })).response.status,
    ).toBe(403);
    const token = await clientToken("demo-backend", "demo-backend-secret", READ);
    const { response } = await api("GET", "/v2/catalogs", { token, headers: { origin: "http://localhost:5173" } });
    expect(response.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(response.headers.get("access-control-expose-headers")).toContain("ETag");
    expect(
      (await api("GET", "/v2/catalogs", { token, headers: { origin: "https://evil.example" } })).response.headers.get(
        "access-control-allow-origin",
      ),
    ).toBeNull();
  });

  it("serves its OpenAPI 3.1 document without a token, and the document is valid OpenAPI 3.1", async () => {
    const { response, body } = await api("GET", "/v2/openapi.json");
    expect(response.status).toBe(200);
    expect(body).toEqual(JSON.parse(JSON.stringify(DOCUMENT)));
    const validator = new Validator();
    const result = await validator.validate(body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    // The validator notices a broken document.
    expect(
      (await new Validator().validate({ ...body, paths: { "/v2/catalogs": { get: { responses: { "200": {} } } } } }))
        .valid,
    ).toBe(false);
  });
});
