import { KEY_RETENTION_SECONDS } from "@/lib/config/policy";
import { serviceContextFor } from "@/lib/service-context";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { prismaStores } from "@/lib/store/stores";
import { issueUserTokens } from "@/lib/oauth/token/issue-tokens";
import { unseal } from "@/lib/crypto/secret-box";
import { forgetKeySet } from "@/lib/store/signing-key-store";
import { ensureSigningKeys, rotateSigningKey } from "@/lib/oauth/keys/signing-keys";
import { ISSUER, SECRET_KEY, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();

async function jwks() {
  const { GET } = await import("@/app/.well-known/openid-configuration/jwks/route");
  const response = await GET(new Request(`${ISSUER}/.well-known/openid-configuration`));
  expect(response.headers.get("cache-control")).toBe("public, max-age=300");
  return (await response.json()) as { keys: Record<string, string>[] };
}

describe(`discovery on ${testProvider()}`, () => {
  it("describes the issuer, its endpoints and what it supports", async () => {
    const { GET } = await import("@/app/.well-known/openid-configuration/route");
    const response = await GET(new Request(`${ISSUER}/.well-known/openid-configuration`));
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
    const metadata = await response.json();
    expect(metadata).toMatchObject({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/connect/authorize`,
      token_endpoint: `${ISSUER}/connect/token`,
      userinfo_endpoint: `${ISSUER}/connect/userinfo`,
      revocation_endpoint: `${ISSUER}/connect/revocation`,
      introspection_endpoint: `${ISSUER}/connect/introspect`,
      end_session_endpoint: `${ISSUER}/connect/endsession`,
      jwks_uri: `${ISSUER}/.well-known/openid-configuration/jwks`,
      response_types_supported: ["code", "id_token", "id_token token", "token"],
      grant_types_supported: [
        "authorization_code",
        "implicit",
        "refresh_token",
        "client_credentials",
        "urn:ietf:params:oauth:grant-type:jwt-bearer",
        "urn:ietf:params:oauth:grant-type:token-exchange",
        "urn:ietf:params:oauth:grant-type:device_code",
      ],
      device_authorization_endpoint: `${ISSUER}/connect/deviceauthorization`,
      response_modes_supported: ["query", "fragment", "form_post"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "private_key_jwt", "none"],
      token_endpoint_auth_signing_alg_values_supported: ["RS256", "PS256", "ES256", "EdDSA"],
      revocation_endpoint_auth_methods_supported: [
        "client_secret_basic",
        "client_secret_post",
        "private_key_jwt",
        "none",
      ],
      introspection_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "private_key_jwt"],
      introspection_endpoint_auth_signing_alg_values_supported: ["RS256", "PS256", "ES256", "EdDSA"],
      id_token_signing_alg_values_supported: ["RS256", "ES256", "PS256"],
      subject_types_supported: ["public"],
      ui_locales_supported: ["en", "de", "fr", "it", "es", "nl", "pl"],
      authorization_response_iss_parameter_supported: true,
    });
    expect(metadata.scopes_supported).toEqual(
      expect.arrayContaining(["openid", "profile", "email", "offline_access", "platform.catalogs.read"]),
    );
    expect(metadata.claims_supported).toEqual(expect.arrayContaining(["sub", "email", "name", "auth_time", "nonce"]));
  });
});

describe(`signing keys on ${testProvider()}`, () => {
  it("publishes only public parts, each with a unique kid", async () => {
    const { keys } = await jwks();
    expect(keys.length).toBeGreaterThanOrEqual(1);
    expect(keys.find((k) => k.alg === "RS256")).toMatchObject({ kty: "RSA", use: "sig" });
    for (const key of keys)
      for (const privatePart of ["d", "p", "q", "dp", "dq", "qi"]) expect(key).not.toHaveProperty(privatePart);
    expect(new Set(keys.map((k) => k.kid)).size).toBe(keys.length);
  });

  it("keeps private keys encrypted under SECRET_KEY", async () => {
    const row = await service().database.db.signingKey.findFirstOrThrow();
    expect(row.privateKeyEncrypted).not.toContain("PRIVATE KEY");
    expect(unseal(row.privateKeyEncrypted, SECRET_KEY, "signing-key-encryption")).toContain("BEGIN PRIVATE KEY");
    expect(() =>
      unseal(row.privateKeyEncrypted, "another-secret-key-of-enough-length", "signing-key-encryption"),
    ).toThrow();
  });

  it("publishes an active key of every algorithm discovery advertises for ID tokens", async () => {
    const db = service().database.db;
    expect(await ensureSigningKeys(prismaStores(db).signingKeys, ["RS256", "ES256", "PS256"], SECRET_KEY)).toHaveLength(
      0,
    );
    const { GET } = await import("@/app/.well-known/openid-configuration/route");
    const advertised: string[] = (await (await GET(new Request(`${ISSUER}/.well-known/openid-configuration`))).json())
      .id_token_signing_alg_values_supported;
    const published = await jwks();
    for (const alg of advertised) expect(published.keys.filter((k) => k.alg === alg)).toHaveLength(1);
    expect(published.keys.find((k) => k.alg === "ES256")).toMatchObject({ kty: "EC", crv: "P-256" });
    expect(published.keys.find((k) => k.alg === "PS256")).toMatchObject({ kty: "RSA" });
    // One key per algorithm: an RSA key serves RS256 or PS256, never both (RFC 7517 §4.4).
    expect(published.keys.find((k) => k.alg === "PS256")!.n).not.toBe(published.keys.find((k) => k.alg === "RS256")!.n);
  });

  it("advertises the server default first and signs with it unless the client asks for another algorithm", async () => {
    const { discoveryDocument } = await import("@/lib/oauth/discovery");
    expect(
      discoveryDocument({ ...loadConfig(), idTokenSigningAlg: "PS256" }).id_token_signing_alg_values_supported,
    ).toEqual(["PS256", "RS256", "ES256"]);
    const db = service().database.db;
    const user = await db.user.findUniqueOrThrow({
      where: { email: "optician@demo.test" },
      include: { company: true },
    });
    const client = (await prismaStores(db).clients.find("demo-web"))!;
    const keys = createLocalJWKSet((await jwks()) as never);
    const idTokenAlg = async (
      config: Partial<ReturnType<typeof loadConfig>>,
      clientAlg: "RS256" | "ES256" | "PS256" | null,
    ) => {
      const body = await issueUserTokens(serviceContextFor(prismaStores(db), { ...loadConfig(), ...config }), {
        client: { ...client, idTokenSignedResponseAlg: clientAlg },
        user,
        scopes: ["openid"],
        authTime: new Date(),
        amr: ["pwd"],
      });
      const { protectedHeader } = await jwtVerify(body.id_token!, keys, {
        issuer: ISSUER,
        audience: "demo-web",
        typ: "JWT",
      });
      return [decodeProtectedHeader(body.access_token).alg, protectedHeader.alg];
    };
    expect(await idTokenAlg({}, null)).toEqual(["RS256", "RS256"]);
    expect(await idTokenAlg({ tokenSigningAlg: "ES256" }, null)).toEqual(["ES256", "RS256"]);
    expect(await idTokenAlg({ idTokenSigningAlg: "ES256" }, null)).toEqual(["RS256", "ES256"]);
    expect(await idTokenAlg({ idTokenSigningAlg: "ES256" }, "PS256")).toEqual(["RS256", "PS256"]);
    expect(await idTokenAlg({}, "ES256")).toEqual(["RS256", "ES256"]);
  });

  it("rotates: the new key signs, the old one stays published until its tokens have expired", async () => {
    const db = service().database.db;
    const before = (await prismaStores(db).signingKeys.keySet(SECRET_KEY)).active.get("RS256")!.kid;
    const { kid, retired } = await rotateSigningKey(prismaStores(db).signingKeys, "RS256", SECRET_KEY);
    expect(retired).toEqual([before]);
    forgetKeySet();
    expect((await prismaStores(db).signingKeys.keySet(SECRET_KEY)).active.get("RS256")!.kid).toBe(kid);
    expect((await jwks()).keys.map((k) => k.kid)).toEqual(expect.arrayContaining([before, kid]));
    forgetKeySet();
    const later = new Date(Date.now() + (KEY_RETENTION_SECONDS + 1) * 1000);
    const published = (await prismaStores(db).signingKeys.keySet(SECRET_KEY, later)).jwks.keys.map((k) => k.kid);
    expect(published).toContain(kid);
    expect(published).not.toContain(before);
    forgetKeySet();
  });
});
