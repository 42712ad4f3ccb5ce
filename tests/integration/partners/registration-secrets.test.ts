/**
 * Secrets of applications registered by RFC 7591: openid-client's dynamicClientRegistration with the initial access
 * token gets a confidential client's first secret in the 201, stored as a hash in the same transaction; the secret
 * authenticates the client once the operator approves it (client credentials, and a code flow with PKCE); more come
 * from POST /connect/register/secrets with the registration access token, the old ones still working; public and
 * private_key_jwt clients get none.
 */
import * as oidc from "openid-client";
import { beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "@/lib/crypto/tokens";
import { parseClientMetadata } from "@/lib/admin/client-metadata";
import { insertPendingClient } from "@/lib/store/partner-store";
import { runAdmin } from "../../helpers/admin-cli";
import { authorizeWithConsent, ISSUER, UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { keySet, partnerKey } from "../../helpers/partner-keys";
import { routeFetch } from "../../helpers/route-fetch";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const db = () => service().database.db;
const admin = (...args: string[]) => runAdmin(db(), args);
const VENDOR = "demo-company-vendor";
const CATALOGS = "platform.catalogs.read";
const LONGEST_PARTNER_SECRET_SECONDS = 2 * 366 * 86_400;

let initialAccessToken: string;
beforeAll(async () => {
  expect((await admin("partners", "scopes", VENDOR, CATALOGS)).code).toBe(0);
  initialAccessToken = JSON.parse((await admin("partners", "token", VENDOR)).stdout).initial_access_token;
});

let counter = 0;
const backend = () => ({
  client_id: `secrets-backend-${++counter}`,
  client_name: "Praxissoft Sync",
  grant_types: ["client_credentials"],
  scope: CATALOGS,
});
const REDIRECT_URI = "https://shop.praxissoft.example/callback";
const webApp = () => ({
  client_id: `secrets-web-${++counter}`,
  client_name: "Praxissoft Shop",
  redirect_uris: [REDIRECT_URI],
  scope: "openid email",
});

const options = { [oidc.customFetch]: routeFetch, execute: [oidc.allowInsecureRequests] };

/** Registers with openid-client as a client that authenticates with the secret it is given. */
const registerWithOpenIdClient = (metadata: Partial<oidc.ClientMetadata>) =>
  oidc.dynamicClientRegistration(new URL(ISSUER), metadata, oidc.ClientSecretBasic(), {
    ...options,
    initialAccessToken,
  });

/** The same client with another of its secrets. */
function withSecret(config: oidc.Configuration, secret: string): oidc.Configuration {
  const { client_id: clientId } = config.clientMetadata();
  const other = new oidc.Configuration(config.serverMetadata(), clientId, secret, oidc.ClientSecretBasic(secret));
  other[oidc.customFetch] = routeFetch;
  oidc.allowInsecureRequests(other);
  return other;
}

/** A client credentials grant refused as invalid_client, with its 401. */
async function expectInvalidClient(config: oidc.Configuration): Promise<void> {
  const refused = await oidc.clientCredentialsGrant(config, { scope: CATALOGS }).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(oidc.WWWAuthenticateChallengeError);
  const { response } = refused as oidc.WWWAuthenticateChallengeError;
  expect(response.status).toBe(401);
  expect(await response.json()).toMatchObject({ error: "invalid_client" });
}

function newSecret(clientId: string, registrationAccessToken: string, init: RequestInit = {}) {
  const uri = `${ISSUER}/connect/register/secrets?${new URLSearchParams({ client_id: clientId })}`;
  return routeFetch(uri, {
    method: "POST",
    ...init,
    headers: { authorization: `Bearer ${registrationAccessToken}`, ...init.headers },
  } as Parameters<typeof routeFetch>[1]);
}

/** Where a registration's secret expires, in seconds since the epoch: as late as a vendor's secret may. */
function expectLongestExpiry(expiresAt: unknown, before: number): void {
  expect(expiresAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) + LONGEST_PARTNER_SECRET_SECONDS);
  expect(expiresAt).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + LONGEST_PARTNER_SECRET_SECONDS);
}

describe(`secrets of RFC 7591 registrations on ${testProvider()}`, () => {
  it("come with the 201 and work once the operator approves the client (client credentials)", async () => {
    const before = Date.now();
    const config = await registerWithOpenIdClient(backend());
    const registered = config.clientMetadata();
    expect(registered).toMatchObject({ status: "pending", token_endpoint_auth_method: "client_secret_basic" });
    expect(registered.client_secret).toMatch(/^[\w-]{43}$/);
    expectLongestExpiry(registered.client_secret_expires_at, before);
    const stored = await db().clientSecret.findMany({ where: { clientId: registered.client_id } });
    expect(stored.map((secret) => secret.secretHash)).toEqual([hashToken(registered.client_secret!)]);
    expect(stored[0].expiresAt!.getTime()).toBe(Number(registered.client_secret_expires_at) * 1000);

    await expectInvalidClient(config);
    expect((await admin("clients", "approve", registered.client_id)).code).toBe(0);
    const tokens = await oidc.clientCredentialsGrant(config, { scope: CATALOGS });
    expect(tokens).toMatchObject({ token_type: "bearer", access_token: expect.any(String) });
  });

  it("redeem a code of a flow with PKCE for an approved web application (openid-client)", async () => {
    const config = await registerWithOpenIdClient(webApp());
    const clientId = config.clientMetadata().client_id;
    expect((await admin("clients", "approve", clientId)).code).toBe(0);
    const [verifier, state, nonce] = [oidc.randomPKCECodeVerifier(), oidc.randomState(), oidc.randomNonce()];
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: "openid email",
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    });
    const { code, response } = await authorizeWithConsent(new UserAgent(), Object.fromEntries(url.searchParams));
    expect(code).not.toBe("");
    const tokens = await oidc.authorizationCodeGrant(config, new URL(response.headers.get("location")!), {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    expect(tokens.claims()).toMatchObject({ aud: clientId, iss: ISSUER, sub: expect.any(String) });
  });

  it("are given to confidential clients only, and a failed secret leaves no application behind", async () => {
    const key = await partnerKey();
    const keysBackend = { ...backend(), token_endpoint_auth_method: "private_key_jwt", jwks: keySet(key) };
    const native = { ...webApp(), application_type: "native", redirect_uris: ["http://127.0.0.1:8765/callback"] };
    for (const metadata of [keysBackend, native]) {
      const config = await oidc.dynamicClientRegistration(new URL(ISSUER), metadata, oidc.None(), {
        ...options,
        initialAccessToken,
      });
      expect(config.clientMetadata()).not.toHaveProperty("client_secret");
      expect(config.clientMetadata()).not.toHaveProperty("client_secret_expires_at");
      expect(await db().clientSecret.count({ where: { clientId: metadata.client_id } })).toBe(0);
    }

    // A secret that cannot be stored (its hash is another's) takes the registration back with it.
    const registration = parseClientMetadata(backend(), "platform");
    const refused = await insertPendingClient(
      db(),
      { ...registration, id: registration.id! },
      { companyId: VENDOR, registrationTokenHash: hashToken(`atomic-${counter}`), limit: 100 },
      undefined,
      { value: "demo-web-secret" },
    );
    expect(typeof refused).toBe("string");
    expect(await db().client.count({ where: { id: registration.id } })).toBe(0);
    expect(await db().auditEvent.count({ where: { clientId: registration.id } })).toBe(0);
  });
});

describe(`POST /connect/register/secrets on ${testProvider()}`, () => {
  it("adds a secret beside the others, pending or approved, with its audit event; a wrong token gets 401", async () => {
    const config = await registerWithOpenIdClient(backend());
    const { client_id: clientId, registration_access_token: token, client_secret: first } = config.clientMetadata();
    const before = Date.now();
    const pending = await newSecret(clientId, String(token));
    expect(pending.status).toBe(201);
    expect(pending.headers.get("cache-control")).toContain("no-store");
    const prepared = await pending.json();
    expect(Object.keys(prepared).sort()).toEqual(["client_id", "client_secret", "client_secret_expires_at"]);
    expect(prepared).toMatchObject({ client_id: clientId, client_secret: expect.stringMatching(/^[\w-]{43}$/) });
    expectLongestExpiry(prepared.client_secret_expires_at, before);
    await expectInvalidClient(withSecret(config, prepared.client_secret));

    expect((await admin("clients", "approve", clientId)).code).toBe(0);
    const rotated = await (await newSecret(clientId, String(token))).json();
    for (const secret of [first!, prepared.client_secret, rotated.client_secret])
      expect((await oidc.clientCredentialsGrant(withSecret(config, secret), { scope: CATALOGS })).access_token).toEqual(
        expect.any(String),
      );
    const stored = await db().clientSecret.findMany({ where: { clientId } });
    expect(stored.map((secret) => secret.secretHash).sort()).toEqual(
      [first!, prepared.client_secret, rotated.client_secret].map(hashToken).sort(),
    );
    expect(await db().auditEvent.count({ where: { clientId, type: "client.secret_added" } })).toBe(3);

    const other = (await registerWithOpenIdClient(backend())).clientMetadata();
    for (const wrong of [String(other.registration_access_token), initialAccessToken, "unknown-token"]) {
      const refused = await newSecret(clientId, wrong);
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
      expect(await refused.json()).toEqual({ error: "invalid_token" });
    }
    const unnamed = await routeFetch(`${ISSUER}/connect/register/secrets`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(unnamed.status).toBe(401);
    expect(await db().clientSecret.count({ where: { clientId } })).toBe(3);
  });

  it("refuses clients without secrets, rejected ones, more than 20 usable secrets and a large body, never 5xx", async () => {
    const native = { ...webApp(), application_type: "native", redirect_uris: ["http://127.0.0.1:8765/callback"] };
    const publicClient = (
      await oidc.dynamicClientRegistration(new URL(ISSUER), native, oidc.None(), { ...options, initialAccessToken })
    ).clientMetadata();
    const noSecrets = await newSecret(native.client_id, String(publicClient.registration_access_token));
    expect(noSecrets.status).toBe(400);
    expect(await noSecrets.json()).toMatchObject({
      error: "invalid_client_metadata",
      error_description: expect.stringMatching(/uses no secrets/),
    });

    const registered = (await registerWithOpenIdClient(backend())).clientMetadata();
    const token = String(registered.registration_access_token);
    const tooLarge = await newSecret(registered.client_id, token, { body: "x".repeat(70_000) });
    expect(tooLarge.status).toBe(413);
    for (let usable = 1; usable < 20; usable++) expect((await newSecret(registered.client_id, token)).status).toBe(201);
    const beyond = await newSecret(registered.client_id, token);
    expect(beyond.status).toBe(400);
    expect(await beyond.json()).toMatchObject({
      error: "invalid_request",
      error_description: expect.stringMatching(/20 usable secrets/),
    });
    // An expired or disabled secret makes room for a new one.
    await db().clientSecret.updateMany({
      where: { secretHash: hashToken(registered.client_secret!) },
      data: { disabledAt: new Date() },
    });
    expect((await newSecret(registered.client_id, token)).status).toBe(201);
    expect(await db().clientSecret.count({ where: { clientId: registered.client_id } })).toBe(21);

    await admin("clients", "reject", registered.client_id, "--reason", "Unknown product");
    const rejected = await newSecret(registered.client_id, token);
    expect(rejected.status).toBe(400);
    expect(await rejected.json()).toMatchObject({ error: "invalid_request" });
  });

  it("keeps to 20 usable secrets under concurrent requests", async () => {
    const registered = (await registerWithOpenIdClient(backend())).clientMetadata();
    const token = String(registered.registration_access_token);
    const answers = await Promise.all(Array.from({ length: 30 }, () => newSecret(registered.client_id, token)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(19);
    expect(statuses.filter((status) => status !== 201).every((status) => status === 400)).toBe(true);
    expect(await db().clientSecret.count({ where: { clientId: registered.client_id } })).toBe(20);
  });
});
