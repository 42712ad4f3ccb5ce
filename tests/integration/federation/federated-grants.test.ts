/**
 * The federation grants at /connect/token (RFC 7523 §2.1 jwt-bearer, RFC 8693 token exchange): a trusted issuer's
 * JWT for a user becomes an OptiGate access token for the local user, usable on the platform API. Every check of
 * RFC 7523 §3 is tried with a jose-signed JWT that fails it: 400 invalid_grant naming the check, an audit event,
 * and nothing else written.
 */
import { prismaStores } from "@/lib/store/stores";
import { randomUUID } from "node:crypto";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parseClientMetadata } from "@/lib/admin/client-metadata";
import { registerClient } from "@/lib/admin/client-registry";
import { addTrustedIssuer, linkSubject } from "@/lib/admin/federation-registry";
import { parseTrustedIssuer } from "@/lib/admin/trusted-issuer-metadata";
import { logger } from "@/lib/observability/logger";
import { forgetUser } from "@/lib/store/user-store";
import { basic, call, formRequest, ISSUER, useOAuthService } from "../../helpers/oauth-service";
import { api } from "../../helpers/platform-api";
import { KeySetServer, keySet, nowSeconds, partnerKey, signed, type PartnerKey } from "../../helpers/partner-keys";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const PARTNER = "https://as.lens-maker.example";
const SCOPES = "platform.catalogs.read platform.supplierreg.read";

let partner: PartnerKey;
let appSecret: string;
let otherSecret: string;
const linked = new KeySetServer();
let linkedKey: PartnerKey;

const db = () => service().database.db;
const claims = (extra: Record<string, unknown> = {}) => ({
  iss: PARTNER,
  sub: "p-4711",
  aud: ISSUER,
  iat: nowSeconds(),
  exp: nowSeconds() + 300,
  jti: randomUUID(),
  email: "optician@demo.test",
  email_verified: true,
  ...extra,
});
const asApp = () => ({ authorization: basic("partner-app", appSecret) });
const bearerGrant = (assertion: string, extra: Record<string, string> = {}, headers = asApp()) =>
  call("token", formRequest("/connect/token", { grant_type: JWT_BEARER, assertion, ...extra }, headers));
const exchange = (
  subjectToken: string,
  type = "urn:ietf:params:oauth:token-type:jwt",
  extra: Record<string, string | string[]> = {},
) =>
  call(
    "token",
    formRequest(
      "/connect/token",
      { grant_type: TOKEN_EXCHANGE, subject_token: subjectToken, subject_token_type: type, ...extra },
      asApp(),
    ),
  );

async function error(response: Response): Promise<{ status: number; error: string; description: string }> {
  const body = await response.json();
  return { status: response.status, error: body.error, description: body.error_description };
}

beforeAll(async () => {
  partner = await partnerKey("ES256");
  const app = await registerClient(
    prismaStores(db()),
    parseClientMetadata(
      { client_id: "partner-app", grant_types: [JWT_BEARER, TOKEN_EXCHANGE], scope: SCOPES },
      "platform",
    ),
  );
  appSecret = app.secret!.secret;
  const other = await registerClient(
    prismaStores(db()),
    parseClientMetadata({ client_id: "other-app", grant_types: [JWT_BEARER], scope: SCOPES }, "platform"),
  );
  otherSecret = other.secret!.secret;
  await addTrustedIssuer(
    prismaStores(db()),
    parseTrustedIssuer({
      issuer: PARTNER,
      jwks: keySet(partner),
      clients: ["partner-app"],
      subject: "email",
      email_domains: ["demo.test"],
    }),
  );
  await linked.start();
  linkedKey = await partnerKey("RS256");
  linked.keys = [linkedKey.publicJwk];
  await addTrustedIssuer(
    prismaStores(db()),
    parseTrustedIssuer({
      issuer: "http://127.0.0.1/partner",
      jwks_uri: linked.url,
      clients: ["partner-app", "other-app"],
      subject: "link",
      companies: ["demo-company-frames"],
    }),
  );
});
afterAll(() => linked.close());

describe(`federated grants on ${testProvider()}`, () => {
  it("jwt-bearer: an access token for the local user named by the verified email, usable on the API, and nothing else", async () => {
    const response = await bearerGrant(await signed(partner, claims()), { scope: "platform.supplierreg.read" });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.json();
    expect(Object.keys(body).sort()).toEqual(["access_token", "expires_in", "token_type"]);
    const user = await db().user.findUniqueOrThrow({ where: { email: "optician@demo.test" } });
    const accessToken = decodeJwt(body.access_token);
    expect(accessToken).toMatchObject({
      iss: ISSUER,
      sub: user.id,
      client_id: "partner-app",
      scope: "platform.supplierreg.read",
      idp: PARTNER,
      company_id: user.companyId,
    });
    expect(accessToken.exp! - accessToken.iat!).toBe(3600);
    const registrations = await api("GET", "/v2/supplierregistrations", { token: body.access_token });
    expect(registrations.body.items.map((item: any) => item.opticianCompanyId)).toEqual(["demo-company-optician"]);
    const event = await db().auditEvent.findFirstOrThrow({
      where: { type: "federation.token_issued" },
      orderBy: { occurredAt: "desc" },
    });
    expect([event.userId, event.clientId, JSON.parse(event.details)]).toEqual([
      user.id,
      "partner-app",
      { grantType: JWT_BEARER, issuer: PARTNER, subject: "p-4711", scope: "platform.supplierreg.read" },
    ]);
  });

  it("token exchange: each JWT subject token type, answered with issued_token_type", async () => {
    for (const type of ["jwt", "access_token", "id_token"].map((name) => `urn:ietf:params:oauth:token-type:${name}`)) {
      const response = await exchange(await signed(partner, claims()), type, { audience: `${ISSUER}/resources` });
      expect(response.status, type).toBe(200);
      const body = await response.json();
      expect(body).toMatchObject({
        token_type: "Bearer",
        issued_token_type: "urn:ietf:params:oauth:token-type:access_token",
        scope: SCOPES,
      });
      expect(decodeJwt(body.access_token).idp).toBe(PARTNER);
    }
  });

  it("refuses every failed check with invalid_grant naming it, records the refusal, and writes nothing else", async () => {
    const stranger = await partnerKey("ES256", partner.kid);
    await db().user.update({ where: { email: "supplier@demo.test" }, data: { active: false } });
    forgetUser();
    const replayed = await signed(partner, claims());
    expect((await bearerGrant(replayed)).status).toBe(200);
    const counts = async () => [
      await db().usedAssertion.count(),
      await db().refreshToken.count(),
      await db().auditEvent.count({ where: { type: "federation.token_refused" } }),
    ];
    const before = await counts();
    const cases: [string, Promise<string> | string, RegExp][] = [
      [
        "an untrusted issuer",
        signed(partner, claims({ iss: "https://as.unknown.example" })),
        /iss "https:\/\/as\.unknown\.example" is not an issuer this client may use/,
      ],
      ["a signature by another key", signed(stranger, claims()), /signature does not verify/],
      ["an unknown kid", signed(partner, claims(), { kid: "no-such-kid" }), /no key of the signer matches/],
      ["another audience", signed(partner, claims({ aud: "https://elsewhere.example" })), /aud does not name OptiGate/],
      ["an expired JWT", signed(partner, claims({ iat: nowSeconds() - 600, exp: nowSeconds() - 120 })), /expired/],
      ["a lifetime over an hour", signed(partner, claims({ exp: nowSeconds() + 3700 })), /lifetime exceeds one hour/],
      ["nbf in the future", signed(partner, claims({ nbf: nowSeconds() + 180 })), /not valid yet/],
      [
        "iat in the future",
        signed(partner, claims({ iat: nowSeconds() + 180, exp: nowSeconds() + 600 })),
        /issued in the future/,
      ],
      ["no sub", signed(partner, claims({ sub: undefined })), /has no sub/],
      ["no jti", signed(partner, claims({ jti: undefined })), /has no jti/],
      ["no exp", signed(partner, claims({ exp: undefined })), /exp/],
      ["an unverified email", signed(partner, claims({ email_verified: false })), /email is not verified/],
      [
        "an email no user has",
        signed(partner, claims({ email: "nobody@demo.test" })),
        /does not name an active local user/,
      ],
      [
        "an inactive user",
        signed(partner, claims({ email: "supplier@demo.test" })),
        /does not name an active local user/,
      ],
      ["a replay", replayed, /jti was already used/],
      ["not a JWT", "not-a-jwt", /not a well-formed signed JWT/],
      [
        "alg none",
        `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from(JSON.stringify(claims())).toString("base64url")}.`,
        /alg is not accepted/,
      ],
    ];
    for (const [name, assertion, reason] of cases) {
      const refused = await error(await bearerGrant(await assertion));
      expect([refused.status, refused.error], name).toEqual([400, "invalid_grant"]);
      expect(refused.description, name).toMatch(reason);
      expect(refused.description, name).toMatch(/^the assertion was refused: /);
    }
    const notAllowed = await error(
      await bearerGrant(await signed(partner, claims()), {}, { authorization: basic("other-app", otherSecret) }),
    );
    // The same answer as for an issuer nobody trusts: a client learns nothing about the issuers it may not use.
    expect(notAllowed).toEqual({
      status: 400,
      error: "invalid_grant",
      description: `the assertion was refused: its iss "${PARTNER}" is not an issuer this client may use`,
    });
    const after = await counts();
    expect(after.slice(0, 2)).toEqual(before.slice(0, 2));
    expect(after[2]).toBe(before[2] + cases.length + 1);
    await db().user.update({ where: { email: "supplier@demo.test" }, data: { active: true } });
    forgetUser();
  });

  it("refuses scopes the client lacks or that need an ID or refresh token, unknown token types, actors, other audiences, and clients without the grant", async () => {
    const jwt = () => signed(partner, claims());
    expect(await error(await bearerGrant(await jwt(), { scope: "platform.supplierreg.readwrite" }))).toMatchObject({
      status: 400,
      error: "invalid_scope",
    });
    expect(await error(await bearerGrant(await jwt(), { scope: "openid platform.catalogs.read" }))).toMatchObject({
      status: 400,
      error: "invalid_scope",
      description: expect.stringMatching(/access token only/),
    });
    expect(await error(await exchange(await jwt(), "urn:ietf:params:oauth:token-type:saml2"))).toMatchObject({
      status: 400,
      error: "invalid_request",
    });
    expect(
      await error(
        await exchange(await jwt(), undefined, {
          actor_token: await jwt(),
          actor_token_type: "urn:ietf:params:oauth:token-type:jwt",
        }),
      ),
    ).toMatchObject({ status: 400, error: "invalid_request" });
    expect(
      await error(await exchange(await jwt(), undefined, { audience: "https://other-api.example" })),
    ).toMatchObject({ status: 400, error: "invalid_target" });
    // RFC 8707 lets resource repeat: every one counts, not only the first.
    expect(
      await error(await exchange(await jwt(), undefined, { resource: [ISSUER, "https://other-api.example"] })),
    ).toMatchObject({ status: 400, error: "invalid_target" });
    expect(
      await error(
        await exchange(await jwt(), undefined, {
          requested_token_type: "urn:ietf:params:oauth:token-type:refresh_token",
        }),
      ),
    ).toMatchObject({ status: 400, error: "invalid_request" });
    const withoutGrant = await call(
      "token",
      formRequest(
        "/connect/token",
        { grant_type: JWT_BEARER, assertion: await jwt() },
        { authorization: basic("demo-backend", "demo-backend-secret") },
      ),
    );
    expect(await error(withoutGrant)).toMatchObject({ status: 400, error: "unauthorized_client" });
    expect(
      await error(await call("token", formRequest("/connect/token", { grant_type: JWT_BEARER }, asApp()))),
    ).toMatchObject({ status: 400, error: "invalid_request", description: "assertion is missing" });
  });

  it("maps subjects by the operator's links for an issuer with keys at its jwks_uri", async () => {
    const jwt = () =>
      signed(linkedKey, {
        iss: "http://127.0.0.1/partner",
        sub: "vendor-user-9",
        aud: `${ISSUER}/connect/token`,
        exp: nowSeconds() + 120,
        jti: randomUUID(),
      });
    expect(await error(await bearerGrant(await jwt()))).toMatchObject({
      status: 400,
      description: expect.stringMatching(/not linked to an active local user/),
    });
    await linkSubject(prismaStores(db()), "http://127.0.0.1/partner", "vendor-user-9", "frames@demo.test");
    const response = await bearerGrant(await jwt());
    expect(response.status).toBe(200);
    const frames = await db().user.findUniqueOrThrow({ where: { email: "frames@demo.test" } });
    expect(decodeJwt((await response.json()).access_token)).toMatchObject({
      sub: frames.id,
      idp: "http://127.0.0.1/partner",
    });
    expect(linked.fetches).toBe(1);
  });

  it("refuses with invalid_grant at once when the issuer's key set cannot be fetched, and the log says why", async () => {
    const gone = await new KeySetServer().start();
    const url = gone.url;
    await gone.close(); // nothing listens there any more
    await addTrustedIssuer(
      prismaStores(db()),
      parseTrustedIssuer({
        issuer: "http://127.0.0.1/gone",
        jwks_uri: url,
        clients: ["partner-app"],
        subject: "email",
        email_domains: ["demo.test"],
      }),
    );
    const warn = vi.spyOn(logger, "warn");
    try {
      const refused = await error(await bearerGrant(await signed(partner, claims({ iss: "http://127.0.0.1/gone" }))));
      // The caller learns nothing about the fetch; the log says why.
      expect(refused).toEqual({
        status: 400,
        error: "invalid_grant",
        description: "the assertion was refused: the signer's keys cannot be had just now",
      });
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/could not be fetched \(ECONNREFUSED\)/));
    } finally {
      warn.mockRestore();
    }
  });

  it("compares emails exactly but for ASCII case, and takes auth_time only when it is a plausible time", async () => {
    expect((await bearerGrant(await signed(partner, claims({ email: "OPTICIAN@Demo.Test" })))).status).toBe(200);
    // U+212A (Kelvin sign) lower-cases to "k" in JavaScript; it must not name the ASCII address kate@….
    await db().user.update({ where: { email: "frames@demo.test" }, data: { email: "kate@demo.test" } });
    forgetUser();
    try {
      expect(
        await error(await bearerGrant(await signed(partner, claims({ email: "\u212Aate@demo.test" })))),
      ).toMatchObject({ status: 400, description: expect.stringMatching(/does not name an active local user/) });
    } finally {
      await db().user.update({ where: { email: "kate@demo.test" }, data: { email: "frames@demo.test" } });
    }
    const authTimeOf = async (authTime: unknown) =>
      decodeJwt((await (await bearerGrant(await signed(partner, claims({ auth_time: authTime })))).json()).access_token)
        .auth_time;
    const signedInAt = nowSeconds() - 600;
    expect(await authTimeOf(signedInAt)).toBe(signedInAt);
    for (const implausible of [1e20, -1, nowSeconds() + 86_400, 1.5, "yesterday", undefined])
      expect(await authTimeOf(implausible), String(implausible)).toBeUndefined();
  });

  it("refuses a partner's token that stands for one of its clients, not a user", async () => {
    for (const extra of [{ client_id: "p-4711" }, { gty: "client_credentials" }]) {
      const refused = await error(await exchange(await signed(partner, claims(extra))));
      expect(refused).toMatchObject({ status: 400, error: "invalid_grant" });
      expect(refused.description).toMatch(/client acting for itself/);
    }
  });

  it("accepts one of two concurrent uses of the same JWT", async () => {
    const jwt = await signed(partner, claims());
    const answers = await Promise.all([bearerGrant(jwt), exchange(jwt)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
  });
});
