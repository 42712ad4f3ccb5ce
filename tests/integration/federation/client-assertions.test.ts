/**
 * private_key_jwt (RFC 7523 §2.2, OpenID Connect Core §9) at the token, revocation and introspection endpoints:
 * clients with inline keys of every accepted algorithm and a client whose keys are fetched from a real HTTP server
 * that rotates them; openid-client as the relying party; each refusal with 401 invalid_client.
 */
import { prismaStores } from "@/lib/store/stores";
import { randomUUID } from "node:crypto";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parseClientMetadata } from "@/lib/admin/client-metadata";
import { registerClient } from "@/lib/admin/client-registry";
import { forgetRemoteKeySets } from "@/lib/jwt/remote-key-sets";
import { logger } from "@/lib/observability/logger";
import { basic, call, formRequest, ISSUER, useOAuthService } from "../../helpers/oauth-service";
import { KeySetServer, keySet, nowSeconds, partnerKey, signed, type PartnerKey } from "../../helpers/partner-keys";
import { routeFetch } from "../../helpers/route-fetch";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
const TOKEN_ENDPOINT = `${ISSUER}/connect/token`;

let keys: Record<"rs" | "ps" | "es" | "ed", PartnerKey>;
const remote = new KeySetServer();

const claimsFor = (clientId: string, extra: Record<string, unknown> = {}) => ({
  iss: clientId,
  sub: clientId,
  aud: TOKEN_ENDPOINT,
  exp: nowSeconds() + 120,
  jti: randomUUID(),
  ...extra,
});
const assertionForm = (assertion: string, form: Record<string, string> = { grant_type: "client_credentials" }) => ({
  ...form,
  client_assertion_type: ASSERTION_TYPE,
  client_assertion: assertion,
});
const token = (form: Record<string, string>, headers: Record<string, string> = {}) =>
  call("token", formRequest("/connect/token", form, headers));

async function refusal(response: Response): Promise<string> {
  expect(response.status).toBe(401);
  const body = await response.json();
  expect(body.error).toBe("invalid_client");
  return body.error_description;
}

beforeAll(async () => {
  keys = {
    rs: await partnerKey("RS256"),
    ps: await partnerKey("PS256"),
    es: await partnerKey("ES256"),
    ed: await partnerKey("EdDSA"),
  };
  const db = service().database.db;
  const backend = {
    grant_types: ["client_credentials"],
    token_endpoint_auth_method: "private_key_jwt",
    scope: "platform.catalogs.read",
  };
  await registerClient(
    prismaStores(db),
    parseClientMetadata(
      { client_id: "partner-backend", ...backend, jwks: keySet(keys.rs, keys.ps, keys.es, keys.ed) },
      "platform",
    ),
  );
  await remote.start();
  await registerClient(
    prismaStores(db),
    parseClientMetadata({ client_id: "partner-remote", ...backend, jwks_uri: remote.url }, "platform"),
  );
});
afterAll(() => remote.close());

describe(`private_key_jwt client authentication on ${testProvider()}`, () => {
  it("accepts assertions signed with RS256, PS256, ES256 and EdDSA, addressed to the token endpoint or the issuer", async () => {
    for (const [name, key] of Object.entries(keys)) {
      for (const aud of [TOKEN_ENDPOINT, ISSUER]) {
        const response = await token(assertionForm(await signed(key, claimsFor("partner-backend", { aud }))));
        expect(response.status, `${name} for ${aud}`).toBe(200);
        expect((await response.json()).access_token).toEqual(expect.any(String));
      }
    }
  });

  it("works with openid-client's PrivateKeyJwt, and at the revocation and introspection endpoints", async () => {
    const config = await oidc.discovery(
      new URL(ISSUER),
      "partner-backend",
      undefined,
      oidc.PrivateKeyJwt({ key: keys.es.privateKey, kid: keys.es.kid }),
      {
        execute: [oidc.allowInsecureRequests],
        [oidc.customFetch]: routeFetch,
      },
    );
    const tokens = await oidc.clientCredentialsGrant(config, { scope: "platform.catalogs.read" });
    expect(tokens.token_type).toBe("bearer");
    const introspected = await oidc.tokenIntrospection(config, tokens.access_token);
    expect([introspected.active, introspected.client_id]).toEqual([true, "partner-backend"]);
    // Access tokens cannot be revoked (unsupported_token_type); an unknown token is answered 200 once the client is known.
    await oidc.tokenRevocation(config, "no-such-refresh-token");
    // Raw, too: the assertion works at introspection, and a replay of it does not.
    const assertion = await signed(keys.rs, claimsFor("partner-backend"));
    const introspect = (form: Record<string, string>) => call("introspect", formRequest("/connect/introspect", form));
    expect((await (await introspect(assertionForm(assertion, { token: tokens.access_token }))).json()).active).toBe(
      true,
    );
    expect(await refusal(await introspect(assertionForm(assertion, { token: tokens.access_token })))).toMatch(
      /already used/,
    );
  });

  it("refuses each failed check with 401 invalid_client, and writes only the first use of a jti", async () => {
    const db = service().database.db;
    const hmac = {
      ...keys.es,
      alg: "HS256" as never,
      privateKey: new TextEncoder().encode(JSON.stringify(keys.es.publicJwk)) as never,
    };
    const stranger = await partnerKey("ES256", keys.es.kid);
    const once = await signed(keys.es, claimsFor("partner-backend"));
    expect((await token(assertionForm(once))).status).toBe(200);
    const usedBefore = await db.usedAssertion.count();
    const cases: [string, Promise<string> | string, RegExp][] = [
      ["a replay", once, /jti was already used/],
      [
        "another audience",
        signed(keys.es, claimsFor("partner-backend", { aud: "https://elsewhere.example/token" })),
        /aud must name the token endpoint/,
      ],
      ["an expired assertion", signed(keys.es, claimsFor("partner-backend", { exp: nowSeconds() - 120 })), /expired/],
      [
        "an exp 10 minutes ahead",
        signed(keys.es, claimsFor("partner-backend", { exp: nowSeconds() + 600 })),
        /more than 5 minutes ahead/,
      ],
      ["no jti", signed(keys.es, claimsFor("partner-backend", { jti: undefined })), /no jti/],
      [
        "an unsigned assertion",
        `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from(JSON.stringify(claimsFor("partner-backend"))).toString("base64url")}.`,
        /alg "none"/,
      ],
      ["HS256 keyed with the public key", signed(hmac, claimsFor("partner-backend")), /alg "HS256"/],
      [
        "a key the client did not register",
        signed(stranger, claimsFor("partner-backend")),
        /cannot be verified with the client's registered keys/,
      ],
      [
        "a client that uses secrets",
        signed(keys.es, claimsFor("demo-backend")),
        /cannot be verified with the client's registered keys/,
      ],
      [
        "a client that does not exist",
        signed(keys.es, claimsFor("nobody-at-all")),
        /cannot be verified with the client's registered keys/,
      ],
    ];
    for (const [name, assertion, reason] of cases)
      expect(await refusal(await token(assertionForm(await assertion))), name).toMatch(reason);
    expect(await db.usedAssertion.count()).toBe(usedBefore);
    // A private_key_jwt client cannot fall back to a secret; two methods at once are a bad request.
    expect(
      await refusal(
        await token({ grant_type: "client_credentials" }, { authorization: basic("partner-backend", "guess") }),
      ),
    ).toBe("client authentication failed");
    expect((await token(assertionForm(once), { authorization: basic("partner-backend", "guess") })).status).toBe(400);
  });

  it("fetches keys from jwks_uri, again when a new kid arrives (at most once a minute), and keeps the last good set", async () => {
    forgetRemoteKeySets();
    const first = await partnerKey("RS256");
    const second = await partnerKey("ES256");
    remote.keys = [first.publicJwk];
    remote.fetches = 0;
    expect((await token(assertionForm(await signed(first, claimsFor("partner-remote"))))).status).toBe(200);
    expect((await token(assertionForm(await signed(first, claimsFor("partner-remote"))))).status).toBe(200);
    expect(remote.fetches).toBe(1);
    // The partner rotates: the new kid makes OptiGate fetch the set again.
    remote.keys = [second.publicJwk];
    expect((await token(assertionForm(await signed(second, claimsFor("partner-remote"))))).status).toBe(200);
    expect(remote.fetches).toBe(2);
    // Unknown kids within the minute cause no more fetches.
    const unknown = await partnerKey("ES256");
    for (let attempt = 0; attempt < 3; attempt++)
      await refusal(await token(assertionForm(await signed(unknown, claimsFor("partner-remote")))));
    expect(remote.fetches).toBe(2);
    // The server fails; the set fetched before stays in use.
    remote.behaviour = "fail";
    expect((await token(assertionForm(await signed(second, claimsFor("partner-remote"))))).status).toBe(200);
    remote.behaviour = "serve";
  });

  it("gives up on a key set server that does not answer within 5 s, says why in the log, and answers 401", async () => {
    const silent = await new KeySetServer().start();
    silent.behaviour = "hang";
    const key = await partnerKey("ES256");
    await registerClient(
      prismaStores(service().database.db),
      parseClientMetadata(
        {
          client_id: "partner-silent",
          grant_types: ["client_credentials"],
          token_endpoint_auth_method: "private_key_jwt",
          scope: "platform.catalogs.read",
          jwks_uri: silent.url,
        },
        "platform",
      ),
    );
    const warn = vi.spyOn(logger, "warn");
    try {
      const started = Date.now();
      expect(await refusal(await token(assertionForm(await signed(key, claimsFor("partner-silent")))))).toMatch(
        /cannot be verified/,
      );
      expect(Date.now() - started).toBeLessThan(6500);
      expect(warn).toHaveBeenCalledWith(
        expect.stringMatching(new RegExp(`jwks_uri ${silent.url}: no answer within 5 s`)),
      );
    } finally {
      warn.mockRestore();
      await silent.close();
    }
  }, 15_000);
});
