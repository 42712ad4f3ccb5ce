/**
 * The device authorization grant (RFC 8628) end to end against the real route handlers: openid-client's device flow
 * with a person allowing at /device, the answer's shape and what is stored of it, every error a poll can get
 * (authorization_pending, slow_down with its interval growing for good, access_denied, expired_token, invalid_grant),
 * one redemption only, DPoP-bound tokens and the public client's rotated refresh tokens.
 */
import { calculateJwkThumbprint, decodeJwt, exportJWK } from "jose";
import * as oidc from "openid-client";
import { beforeAll, describe, expect, it } from "vitest";
import { DEVICE_POLL_INTERVAL_SECONDS } from "@/lib/config/policy";
import { hashToken } from "@/lib/crypto/tokens";
import { DEVICE_CODE_GRANT } from "@/lib/oauth/grant-types";
import { metrics } from "@/lib/observability/metrics";
import {
  basic,
  call,
  formRequest,
  ISSUER,
  signedInAgent,
  useOAuthService,
  type UserAgent,
} from "../../helpers/oauth-service";
import { dpopProof, proofKey, type ProofKey } from "../../helpers/dpop-proofs";
import { testProvider } from "../../helpers/test-database";
import { decide, deviceClient, deviceCodes, DEVICE_SCOPE, poll, pollError } from "./device-steps";

const service = useOAuthService();
const db = () => service().database.db;
const TOKEN_URL = `${ISSUER}/connect/token`;

let optician: UserAgent;
beforeAll(async () => {
  optician = await signedInAgent("optician@demo.test", "Optician#2026");
});

/** A request the optician allowed; its device code. */
async function allowed(scopes?: string[]): Promise<string> {
  const codes = await deviceCodes();
  expect(landingOf(await decide(optician, codes.user_code, "allow", scopes))).toBe("/device?done=approved");
  return codes.device_code;
}

const landingOf = (response: Response) => response.headers.get("location");

/** Moves a request's clock: its next poll and expiry come `seconds` sooner, as if that much time had passed. */
async function letTimePass(deviceCode: string, seconds: number): Promise<void> {
  const row = await requestRow(deviceCode);
  const sooner = (date: Date) => new Date(date.getTime() - seconds * 1000);
  await db().deviceAuthorization.update({
    where: { id: row.id },
    data: { nextPollAt: sooner(row.nextPollAt), expiresAt: sooner(row.expiresAt), createdAt: sooner(row.createdAt) },
  });
}

const requestRow = (deviceCode: string) =>
  db().deviceAuthorization.findUniqueOrThrow({ where: { deviceCodeHash: hashToken(deviceCode) } });

describe(`the device authorization grant on ${testProvider()}`, () => {
  it("signs a device in with openid-client: the person allows at /device, the poll then yields the tokens", async () => {
    const config = await deviceClient();
    expect(config.serverMetadata()).toMatchObject({
      device_authorization_endpoint: `${ISSUER}/connect/deviceauthorization`,
      grant_types_supported: expect.arrayContaining([DEVICE_CODE_GRANT]),
    });
    const device = await oidc.initiateDeviceAuthorization(config, { scope: DEVICE_SCOPE });
    expect(device).toMatchObject({ verification_uri: `${ISSUER}/device`, expires_in: 600, interval: 5 });
    expect(landingOf(await decide(optician, device.user_code, "allow"))).toBe("/device?done=approved");

    const tokens = await oidc.pollDeviceAuthorizationGrant(config, device);
    const session = await db().loginSession.findFirstOrThrow({
      where: { user: { email: "optician@demo.test" } },
      orderBy: { createdAt: "desc" },
    });
    expect(tokens.claims()).toMatchObject({
      iss: ISSUER,
      aud: "demo-device",
      auth_time: Math.floor(session.authTime.getTime() / 1000),
      amr: ["pwd"],
      acr: "urn:optigate:acr:password",
      given_name: "Olivia",
    });
    // The profile scope's claims are in the ID token (demo-device has id_token_claims); email was not asked for.
    expect(tokens.claims()).not.toHaveProperty("email");
    expect(tokens).toMatchObject({ token_type: "bearer", refresh_token: expect.any(String) });
    expect(tokens.scope).toBeUndefined();
    expect(decodeJwt(tokens.access_token)).toMatchObject({ client_id: "demo-device", scope: DEVICE_SCOPE });
    // The device's grant is the optician's consent, which the portal lists and can take back.
    const consent = await db().consent.findFirstOrThrow({ where: { clientId: "demo-device", revokedAt: null } });
    expect(JSON.parse(consent.scopes).sort()).toEqual(DEVICE_SCOPE.split(" ").sort());
  });

  it("answers with a 256-bit device code and an 8-letter user code, keeping only their hashes", async () => {
    const response = await call(
      "deviceauthorization",
      formRequest(
        "/connect/deviceauthorization",
        { client_id: "demo-device", scope: "openid" },
        { "x-forwarded-for": "192.0.2.44" },
      ),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const answer = await response.json();
    expect(Object.keys(answer).sort()).toEqual(
      ["device_code", "expires_in", "interval", "user_code", "verification_uri", "verification_uri_complete"].sort(),
    );
    expect(Buffer.from(answer.device_code, "base64url")).toHaveLength(32);
    expect(answer.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(answer.verification_uri_complete).toBe(`${ISSUER}/device?user_code=${answer.user_code}`);
    const row = await requestRow(answer.device_code);
    expect(row).toMatchObject({ clientId: "demo-device", status: "pending", network: "192.0.2.0/24", pollInterval: 5 });
    const stored = JSON.stringify(row);
    for (const secret of [answer.device_code, answer.user_code, answer.user_code.replace("-", "")])
      expect(stored).not.toContain(secret);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(600_000);
  });

  it("answers authorization_pending, then slow_down for a poll too early, the interval growing by 5 s for good", async () => {
    const { device_code: code } = await deviceCodes();
    expect(await pollError(await poll(code))).toBe("authorization_pending");
    expect(await pollError(await poll(code))).toBe("slow_down");
    expect((await requestRow(code)).pollInterval).toBe(10);
    expect(await pollError(await poll(code))).toBe("slow_down");
    expect((await requestRow(code)).pollInterval).toBe(15);
    // 11 s later: on time for the first interval, still too early for the grown one.
    await letTimePass(code, 11);
    expect(await pollError(await poll(code))).toBe("slow_down");
    const slowed = await requestRow(code);
    expect(slowed.pollInterval).toBe(20);
    expect(slowed.nextPollAt.getTime() - Date.now()).toBeGreaterThan(18_000);
    await letTimePass(code, 21);
    expect(await pollError(await poll(code))).toBe("authorization_pending");
    expect((await requestRow(code)).pollInterval).toBe(20);
  });

  it("counts concurrent polls on time as one: the others are slowed down", async () => {
    const { device_code: code } = await deviceCodes();
    const answers = await Promise.all([1, 2, 3, 4].map(async () => pollError(await poll(code))));
    expect(answers.sort()).toEqual(["authorization_pending", "slow_down", "slow_down", "slow_down"]);
  });

  it("answers access_denied once the person denied, to every later poll too", async () => {
    const codes = await deviceCodes();
    expect(landingOf(await decide(optician, codes.user_code, "deny"))).toBe("/device?done=denied");
    expect(await pollError(await poll(codes.device_code))).toBe("access_denied");
    expect(await pollError(await poll(codes.device_code))).toBe("access_denied");
    const event = await db().auditEvent.findFirstOrThrow({
      where: { type: "device.denied" },
      orderBy: { occurredAt: "desc" },
    });
    expect(JSON.parse(event.details)).toEqual({ deviceAuthorizationId: (await requestRow(codes.device_code)).id });
  });

  it("denies when the person allows with every scope unticked (openid not asked for): allowing nothing is denying", async () => {
    const codes = await deviceCodes({ scope: "profile platform.catalogs.read" });
    expect(landingOf(await decide(optician, codes.user_code, "allow", []))).toBe("/device?done=denied");
    expect(await pollError(await poll(codes.device_code))).toBe("access_denied");
  });

  it("answers expired_token for a request past its ten minutes, pending or allowed, and /device no longer takes it", async () => {
    const pending = await deviceCodes();
    await letTimePass(pending.device_code, 601);
    expect(await pollError(await poll(pending.device_code))).toBe("expired_token");
    const entered = await optician.post("device", "/interaction/device", { user_code: pending.user_code });
    expect(landingOf(entered)).toMatch(/^\/device\?error=expired/);
    const code = await allowed();
    await letTimePass(code, 601);
    expect(await pollError(await poll(code))).toBe("expired_token");
  });

  it("redeems a code once: a second use and concurrent twins get invalid_grant", async () => {
    const code = await allowed();
    const answers = await Promise.all([1, 2, 3].map(() => poll(code)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400]);
    const refused = answers.filter((answer) => answer.status === 400);
    for (const answer of refused) expect(await pollError(answer)).toBe("invalid_grant");
    expect(await pollError(await poll(code))).toBe("invalid_grant");
    expect(
      await db().refreshToken.count({ where: { clientId: "demo-device", consentId: { not: null } } }),
    ).toBeGreaterThan(0);
  });

  it("answers invalid_grant for an unknown code and for another client's", async () => {
    expect(await pollError(await poll("not-a-device-code"))).toBe("invalid_grant");
    const code = await allowed();
    const other = await call(
      "token",
      formRequest(
        "/connect/token",
        { grant_type: DEVICE_CODE_GRANT, device_code: code },
        { Authorization: basic("demo-web", "demo-web-secret") },
      ),
    );
    // demo-web is not registered for the grant at all; the code stays usable for its own client.
    expect(await pollError(other)).toBe("unauthorized_client");
    expect((await poll(code)).status).toBe(200);
  });

  it("grants what the person ticked and says so in the answer's scope", async () => {
    const code = await allowed(["openid", "platform.catalogs.read"]);
    const body = await (await poll(code)).json();
    expect(body.scope.split(" ").sort()).toEqual(["openid", "platform.catalogs.read"]);
    expect(body.refresh_token).toBeUndefined();
    expect(body.id_token).toEqual(expect.any(String));
  });

  it("refuses what the device may not ask for, and parameters it must send", async () => {
    const refusal = async (form: Record<string, string>, clientId = "demo-device") => {
      const response = await call(
        "deviceauthorization",
        formRequest(
          "/connect/deviceauthorization",
          { client_id: clientId, ...form },
          { "x-forwarded-for": "192.0.2.9" },
        ),
      );
      return [response.status, (await response.json()).error];
    };
    expect(await refusal({ scope: "openid email" })).toEqual([400, "invalid_scope"]);
    expect(await refusal({})).toEqual([400, "invalid_request"]);
    expect(await refusal({ scope: "openid" }, "demo-native")).toEqual([400, "unauthorized_client"]);
    expect(await refusal({ scope: "openid" }, "no-such-client")).toEqual([401, "invalid_client"]);
    // RFC 8707: only a resource server the client may reach.
    expect(await refusal({ scope: "openid", resource: "https://elsewhere.example/api" })).toEqual([
      400,
      "invalid_target",
    ]);
    const missing = await call(
      "token",
      formRequest("/connect/token", { grant_type: DEVICE_CODE_GRANT, client_id: "demo-device" }),
    );
    expect(await pollError(missing)).toBe("invalid_request");
  });

  it("issues the device's access token for the resource it asked for (RFC 8707), and no other", async () => {
    const services = `${ISSUER}/services`;
    const codes = await deviceCodes({ resource: services });
    expect(landingOf(await decide(optician, codes.user_code, "allow"))).toBe("/device?done=approved");
    expect(await pollError(await poll(codes.device_code, { resource: ISSUER }))).toBe("invalid_target");
    await letTimePass(codes.device_code, DEVICE_POLL_INTERVAL_SECONDS);
    const answer = await poll(codes.device_code);
    const body = await answer.json();
    expect(answer.status, JSON.stringify(body)).toBe(200);
    expect(decodeJwt(body.access_token).aud).toBe(services);
    // The refresh token keeps the grant's resource: a refresh is for it too.
    const refreshed = await call(
      "token",
      formRequest("/connect/token", {
        grant_type: "refresh_token",
        refresh_token: body.refresh_token,
        client_id: "demo-device",
      }),
    );
    expect(decodeJwt((await refreshed.json()).access_token).aud).toBe(services);
  });

  it("gives a device nothing once the person took the application's access back before it polled", async () => {
    const code = await allowed();
    const revoked = await optician.post("portal", "/interaction/portal", {
      action: "revoke",
      client_id: "demo-device",
    });
    expect(revoked.headers.get("location")).toContain("revoked=demo-device");
    expect(await pollError(await poll(code))).toBe("access_denied");
  });

  it("counts device sign-ins and device token requests in the metrics", async () => {
    const value = async (name: string, labels: Record<string, string>) =>
      (await metrics.registry.getSingleMetric(name)!.get()).values.find((entry) =>
        Object.entries(labels).every(([key, wanted]) => entry.labels[key] === wanted),
      )?.value ?? 0;
    const steps = "optigate_device_authorizations_total";
    const before = [await value(steps, { step: "requested" }), await value(steps, { step: "approved" })];
    const code = await allowed();
    await poll(code);
    expect([await value(steps, { step: "requested" }), await value(steps, { step: "approved" })]).toEqual([
      before[0] + 1,
      before[1] + 1,
    ]);
    expect(
      await value("optigate_tokens_issued_total", { grant: DEVICE_CODE_GRANT, token: "id_token" }),
    ).toBeGreaterThan(0);
  });
});

describe(`device tokens and DPoP on ${testProvider()}`, () => {
  let key: ProofKey;
  beforeAll(async () => {
    key = await proofKey("ES256");
  });

  it("binds the tokens to the key of the poll's DPoP proof, with openid-client", async () => {
    const config = await deviceClient();
    const device = await oidc.initiateDeviceAuthorization(config, { scope: DEVICE_SCOPE });
    await decide(optician, device.user_code, "allow");
    const keyPair = await oidc.randomDPoPKeyPair("ES256");
    const DPoP = oidc.getDPoPHandle(config, keyPair);
    const tokens = await oidc.pollDeviceAuthorizationGrant(config, device, undefined, { DPoP });
    expect(tokens.token_type).toBe("dpop");
    const jkt = await calculateJwkThumbprint(await exportJWK(keyPair.publicKey));
    expect(decodeJwt(tokens.access_token).cnf).toEqual({ jkt });
    // The public client's refresh token is bound too: without a proof by that key it is refused.
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: "invalid_grant",
    });
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP });
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
  });

  it("rotates a public device client's refresh token and revokes the family when a rotated-out one comes back", async () => {
    const body = await (await poll(await allowed(), {}, { DPoP: await dpopProof(key, "POST", TOKEN_URL) })).json();
    expect(body.token_type).toBe("DPoP");
    const refresh = async (token: string) =>
      call(
        "token",
        formRequest(
          "/connect/token",
          { grant_type: "refresh_token", refresh_token: token, client_id: "demo-device" },
          { DPoP: await dpopProof(key, "POST", TOKEN_URL) },
        ),
      );
    const first = await (await refresh(body.refresh_token)).json();
    expect(first.refresh_token).toEqual(expect.any(String));
    expect(first.refresh_token).not.toBe(body.refresh_token);
    const row = await db().refreshToken.findUniqueOrThrow({ where: { tokenHash: hashToken(body.refresh_token) } });
    await db().refreshToken.update({ where: { id: row.id }, data: { rotatedAt: new Date(Date.now() - 60_000) } });
    expect((await (await refresh(body.refresh_token)).json()).error).toBe("invalid_grant");
    expect((await (await refresh(first.refresh_token)).json()).error).toBe("invalid_grant");
  });
});
