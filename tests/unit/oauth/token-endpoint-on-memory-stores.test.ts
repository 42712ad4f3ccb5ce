/**
 * The token endpoint's grants and revocation on the in-memory stores, in milliseconds: the same handlers the route
 * table serves, with no database behind them (tests/helpers/memory-service.ts).
 */
import { createHash } from "node:crypto";
import { createLocalJWKSet, decodeJwt, exportJWK, generateKeyPair, jwtVerify, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import type { ProtocolRequest } from "@/lib/http/protocol-message";
import { issueAuthorizationCode } from "@/lib/oauth/authorize/issue-authorization-code";
import type { AuthorizationRequest } from "@/lib/oauth/authorize/authorization-request";
import { handleRevocationRequest } from "@/lib/oauth/revocation-endpoint";
import { handleTokenRequest } from "@/lib/oauth/token/token-endpoint";
import { registration } from "../../store-contract/clients";
import { MEMORY_ISSUER, memoryService } from "../../helpers/memory-service";

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

function post(path: string, form: Record<string, string>, authorization?: string): ProtocolRequest {
  const headers = new Headers({ "content-type": "application/x-www-form-urlencoded" });
  if (authorization) headers.set("authorization", authorization);
  const body = new TextEncoder().encode(new URLSearchParams(form).toString());
  return { method: "POST", url: `${MEMORY_ISSUER}${path}`, headers, body };
}

async function setUp(policy: "reuse" | "rotate" = "reuse") {
  const service = memoryService();
  service.addClient(
    "shop",
    registration({ refreshTokenPolicy: policy, allowedScopes: ["openid", "profile", "offline_access"] }),
    "shop-secret",
  );
  const userId = await service.addUser("ada@optik.example");
  const token = (form: Record<string, string>, secret = "shop-secret") =>
    handleTokenRequest(post("/connect/token", form, basic("shop", secret)), service.context);
  return { ...service, userId, token };
}

/** A code as the authorize endpoint issues it after sign-in and consent, with a PKCE challenge. */
async function codeFor(service: Awaited<ReturnType<typeof setUp>>, verifier: string) {
  const client = (await service.context.stores.clients.find("shop"))!;
  const request = {
    client,
    redirectUri: "https://shop.example/callback",
    scope: "openid profile offline_access",
    codeChallenge: createHash("sha256").update(verifier).digest("base64url"),
    resources: [] as string[],
  } as AuthorizationRequest;
  return issueAuthorizationCode(service.context, request, {
    userId: service.userId,
    sessionId: "session-1",
    authTime: new Date(),
    amr: ["pwd"],
    scopes: ["openid", "profile", "offline_access"],
  });
}

const redeem = (verifier: string, code: string) => ({
  grant_type: "authorization_code",
  code,
  redirect_uri: "https://shop.example/callback",
  code_verifier: verifier,
});

describe("the token endpoint on the memory stores", () => {
  it("redeems a code once, with its verifier, for tokens signed by a key the key set publishes", async () => {
    const service = await setUp();
    const verifier = "v".repeat(43);
    const code = await codeFor(service, verifier);
    const answer = await service.token(redeem(verifier, code));
    expect(answer.status).toBe(200);
    expect(answer.headers["Cache-Control"] ?? answer.headers["cache-control"]).toBe("no-store");
    const body = JSON.parse(answer.body);
    // The scope is left out of the answer when it is the one asked for (RFC 6749 §5.1).
    expect(body).toMatchObject({ token_type: "Bearer", refresh_token: expect.any(String) });
    expect(body.scope).toBeUndefined();
    const keys = createLocalJWKSet(
      (await service.context.stores.signingKeys.keySet(service.context.config.secretKey)).jwks,
    );
    const { payload } = await jwtVerify(body.access_token, keys, { issuer: MEMORY_ISSUER });
    expect(payload).toMatchObject({ sub: service.userId, client_id: "shop", scope: "openid profile offline_access" });
    expect(decodeJwt(body.id_token)).toMatchObject({ sub: service.userId, aud: "shop" });

    const again = await service.token(redeem(verifier, code));
    expect(JSON.parse(again.body)).toMatchObject({ error: "invalid_grant" });
    // A second use of the code revokes what the first one issued (RFC 6749 §4.1.2).
    expect(
      JSON.parse((await service.token({ grant_type: "refresh_token", refresh_token: body.refresh_token })).body),
    ).toMatchObject({ error: "invalid_grant" });
  });

  it("refuses a wrong verifier, and spends the code doing so", async () => {
    const service = await setUp();
    const code = await codeFor(service, "a".repeat(43));
    expect(JSON.parse((await service.token(redeem("b".repeat(43), code))).body)).toMatchObject({
      error: "invalid_grant",
      error_description: "code_verifier does not match the code_challenge",
    });
    expect((await service.token(redeem("a".repeat(43), code))).status).toBe(400);
  });

  it("slides a reused refresh token, and narrows its scopes on request", async () => {
    const service = await setUp("reuse");
    const verifier = "r".repeat(43);
    const first = JSON.parse((await service.token(redeem(verifier, await codeFor(service, verifier)))).body);
    const refreshed = await service.token({
      grant_type: "refresh_token",
      refresh_token: first.refresh_token,
      scope: "openid",
    });
    const narrowed = JSON.parse(refreshed.body);
    expect(narrowed.refresh_token).toBe(first.refresh_token);
    expect(decodeJwt(narrowed.access_token).scope).toBe("openid");
    expect(
      JSON.parse(
        (await service.token({ grant_type: "refresh_token", refresh_token: first.refresh_token, scope: "email" })).body,
      ),
    ).toMatchObject({ error: "invalid_scope" });
  });

  it("rotates a refresh token, and revokes the family when a rotated-out one comes back after the grace period", async () => {
    const service = await setUp("rotate");
    const verifier = "o".repeat(43);
    const first = JSON.parse((await service.token(redeem(verifier, await codeFor(service, verifier)))).body);
    const second = JSON.parse(
      (await service.token({ grant_type: "refresh_token", refresh_token: first.refresh_token })).body,
    );
    expect(second.refresh_token).not.toBe(first.refresh_token);
    // A retry within the grace period gets the same successor.
    const retry = JSON.parse(
      (await service.token({ grant_type: "refresh_token", refresh_token: first.refresh_token })).body,
    );
    expect(retry.refresh_token).toBe(second.refresh_token);
    const stored = service.tables.refreshTokens;
    for (const token of stored.values()) if (token.rotatedAt) token.rotatedAt = new Date(Date.now() - 3_600_000);
    expect(
      JSON.parse((await service.token({ grant_type: "refresh_token", refresh_token: first.refresh_token })).body),
    ).toMatchObject({ error: "invalid_grant", error_description: "the refresh token was already used" });
    expect((await service.token({ grant_type: "refresh_token", refresh_token: second.refresh_token })).status).toBe(
      400,
    );
  });

  it("revokes a refresh token's family at the revocation endpoint and records it", async () => {
    const service = await setUp();
    const verifier = "x".repeat(43);
    const body = JSON.parse((await service.token(redeem(verifier, await codeFor(service, verifier)))).body);
    const revocation = post("/connect/revocation", { token: body.refresh_token }, basic("shop", "shop-secret"));
    expect((await handleRevocationRequest(revocation, service.context)).status).toBe(200);
    expect((await service.token({ grant_type: "refresh_token", refresh_token: body.refresh_token })).status).toBe(400);
    expect(await service.context.stores.audit.list({ type: "token.revoked", clientId: "shop" }, 10)).toHaveLength(1);
  });

  it("answers a wrong client secret with invalid_client, counted by the throttle", async () => {
    const service = await setUp();
    const answer = await service.token({ grant_type: "refresh_token", refresh_token: "x" }, "wrong");
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ error: "invalid_client" });
  });

  it("grants a partner's JWT for a user its issuer speaks for, once per jti (RFC 7523)", async () => {
    const service = await setUp();
    const { publicKey, privateKey } = await generateKeyPair("ES256");
    const grants = ["urn:ietf:params:oauth:grant-type:jwt-bearer"];
    service.addClient(
      "partner",
      registration({ kind: "backend", grantTypes: grants, allowedScopes: ["platform.catalogs.read"] }),
      "p-secret",
    );
    const issuer = "https://idp.partner.example";
    await service.context.stores.trustedIssuers.save(
      {
        issuer,
        jwks: { keys: [{ ...(await exportJWK(publicKey)), kid: "partner-1", alg: "ES256" }] },
        jwksUri: null,
        clientIds: ["partner"],
        subjectMapping: "email",
        reach: { companies: [], emailDomains: ["optik.example"] },
      },
      async () => undefined,
      () => ({ type: "federation.issuer_added" }),
    );
    const assertion = (jti: string, email = "ada@optik.example") =>
      new SignJWT({ email, email_verified: true })
        .setProtectedHeader({ alg: "ES256", kid: "partner-1" })
        .setIssuer(issuer)
        .setSubject("partner-user-7")
        .setAudience(MEMORY_ISSUER)
        .setIssuedAt()
        .setExpirationTime("5m")
        .setJti(jti)
        .sign(privateKey);
    const grant = async (jwt: string) =>
      handleTokenRequest(
        post("/connect/token", { grant_type: grants[0], assertion: jwt }, basic("partner", "p-secret")),
        service.context,
      );
    const answer = await grant(await assertion("jti-1"));
    expect(answer.status).toBe(200);
    const { access_token } = JSON.parse(answer.body) as { access_token: string };
    expect(decodeJwt(access_token)).toMatchObject({ sub: service.userId, client_id: "partner", idp: issuer });
    expect(JSON.parse((await grant(await assertion("jti-1"))).body)).toMatchObject({ error: "invalid_grant" });
    const stranger = await grant(await assertion("jti-2", "someone@elsewhere.example"));
    expect(JSON.parse(stranger.body)).toMatchObject({ error: "invalid_grant" });
  });
});
