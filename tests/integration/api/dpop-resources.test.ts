/**
 * DPoP at the protected resources (RFC 9449 §7): userinfo, the platform API and SilentLogin take a key-bound token
 * only as `Authorization: DPoP` with a fresh proof of that key over the request and the token (`ath`), refuse it as a
 * bearer token, refuse an unbound token under the DPoP scheme, and answer with a DPoP challenge naming the algorithms
 * (and a nonce when the server wants one). Also PAR for a private_key_jwt client, and dpop_bound_access_tokens.
 */
import { prismaStores } from "@/lib/store/stores";
import { randomUUID } from "node:crypto";
import { decodeJwt } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { parseClientMetadata } from "@/lib/admin/client-metadata";
import { registerClient } from "@/lib/admin/client-registry";
import { getConfig } from "@/lib/config";
import { dpopAccessTokenHash } from "@/lib/jwt/dpop-proof";
import { basic, call, formRequest, ISSUER, useOAuthService } from "../../helpers/oauth-service";
import { dpopProof, proofKey, type ProofKey } from "../../helpers/dpop-proofs";
import { keySet, nowSeconds, partnerKey, signed } from "../../helpers/partner-keys";
import { routeFetch } from "../../helpers/route-fetch";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const CATALOGS = `${ISSUER}/v2/catalogs`;
const USERINFO = `${ISSUER}/connect/userinfo`;
const backend = { Authorization: basic("demo-backend", "demo-backend-secret") };
let key: ProofKey;
let bound: string;
let bearer: string;

async function clientToken(proof?: string): Promise<string> {
  const headers = proof ? { ...backend, DPoP: proof } : backend;
  const response = await call("token", formRequest("/connect/token", { grant_type: "client_credentials" }, headers));
  return (await response.json()).access_token;
}

/** A proof of `signer` for GET `url` with `token`; `claims` changes the usual ones. */
const proofFor = (signer: ProofKey, url: string, token: string, claims: Record<string, unknown> = {}) =>
  dpopProof(signer, "GET", url, { claims: { ath: dpopAccessTokenHash(token), ...claims } });

const get = (url: string, headers: Record<string, string>) => routeFetch(url, { headers });

beforeAll(async () => {
  key = await proofKey();
  bound = await clientToken(await dpopProof(key, "POST", `${ISSUER}/connect/token`));
  bearer = await clientToken();
});

describe(`DPoP-bound tokens at the resources on ${testProvider()}`, () => {
  it("serves the platform API to the bound token with a proof of its key", async () => {
    const response = await get(CATALOGS, {
      authorization: `DPoP ${bound}`,
      dpop: await proofFor(key, CATALOGS, bound),
    });
    expect(response.status).toBe(200);
  });

  const refusals: [string, () => Promise<Record<string, string>>, RegExp][] = [
    ["the bound token as a bearer token", async () => ({ authorization: `Bearer ${bound}` }), /error="invalid_token"/],
    ["no proof", async () => ({ authorization: `DPoP ${bound}` }), /error="invalid_token".*needs a DPoP proof/],
    [
      "a proof without ath",
      async () => ({ authorization: `DPoP ${bound}`, dpop: await dpopProof(key, "GET", CATALOGS) }),
      /error="invalid_dpop_proof".*ath/,
    ],
    [
      "a proof for another token",
      async () => ({ authorization: `DPoP ${bound}`, dpop: await proofFor(key, CATALOGS, bearer) }),
      /error="invalid_dpop_proof".*ath/,
    ],
    [
      "a proof by another key",
      async () => ({ authorization: `DPoP ${bound}`, dpop: await proofFor(await proofKey(), CATALOGS, bound) }),
      /error="invalid_token".*another key/,
    ],
    [
      "a proof for another URL",
      async () => ({
        authorization: `DPoP ${bound}`,
        dpop: await proofFor(key, `${ISSUER}/v2/supplierregistrations`, bound),
      }),
      /error="invalid_dpop_proof".*htu/,
    ],
    [
      "an unbound token under the DPoP scheme",
      async () => ({ authorization: `DPoP ${bearer}`, dpop: await proofFor(key, CATALOGS, bearer) }),
      /error="invalid_token".*not bound/,
    ],
  ];

  it.each(refusals)("refuses %s with 401 and a DPoP challenge", async (_name, headers, challenge) => {
    const response = await get(CATALOGS, await headers());
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const header = response.headers.get("www-authenticate")!;
    expect(header).toMatch(/^DPoP /);
    expect(header).toMatch(challenge);
    expect(header).toContain('algs="ES256 EdDSA RS256 PS256"');
  });

  it("refuses a replayed proof at the resource", async () => {
    const proof = await proofFor(key, CATALOGS, bound);
    expect((await get(CATALOGS, { authorization: `DPoP ${bound}`, dpop: proof })).status).toBe(200);
    const replay = await get(CATALOGS, { authorization: `DPoP ${bound}`, dpop: proof });
    expect(replay.status).toBe(401);
    expect(replay.headers.get("www-authenticate")).toMatch(/invalid_dpop_proof.*used before/);
  });

  it("asks for the server's nonce at userinfo and the API when REQUIRE_DPOP_NONCE is on", async () => {
    const config = getConfig();
    config.requireDpopNonce = true;
    try {
      const first = await get(CATALOGS, { authorization: `DPoP ${bound}`, dpop: await proofFor(key, CATALOGS, bound) });
      expect(first.status).toBe(401);
      expect(first.headers.get("www-authenticate")).toMatch(/^DPoP error="use_dpop_nonce"/);
      const nonce = first.headers.get("dpop-nonce")!;
      expect(nonce).toMatch(/^[\w-]{43}$/);
      const retried = await get(CATALOGS, {
        authorization: `DPoP ${bound}`,
        dpop: await proofFor(key, CATALOGS, bound, { nonce }),
      });
      expect(retried.status).toBe(200);
      const token = await call(
        "token",
        formRequest(
          "/connect/token",
          { grant_type: "client_credentials" },
          {
            ...backend,
            DPoP: await dpopProof(key, "POST", `${ISSUER}/connect/token`),
          },
        ),
      );
      expect(token.status).toBe(400);
      expect(await token.json()).toMatchObject({ error: "use_dpop_nonce" });
      expect(token.headers.get("dpop-nonce")).toBe(nonce);
    } finally {
      config.requireDpopNonce = false;
    }
  });

  it("answers userinfo without a token with both challenges, and a bound client token there with the DPoP one", async () => {
    const none = await call("userinfo", new Request(USERINFO));
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="OptiGate", DPoP algs="ES256 EdDSA RS256 PS256"');
    const asBearer = await call("userinfo", new Request(USERINFO, { headers: { authorization: `Bearer ${bound}` } }));
    expect(asBearer.status).toBe(401);
    expect(asBearer.headers.get("www-authenticate")).toMatch(/^DPoP error="invalid_token"/);
  });

  it("shows cnf and token_type DPoP in introspection", async () => {
    const response = await call("introspect", formRequest("/connect/introspect", { token: bound }, backend));
    expect(await response.json()).toMatchObject({ active: true, token_type: "DPoP", cnf: { jkt: key.jkt } });
    expect(decodeJwt(bound).cnf).toEqual({ jkt: key.jkt });
  });
});

describe(`clients that require DPoP or PAR on ${testProvider()}`, () => {
  it("refuses a token request without a proof from a client registered with dpop_bound_access_tokens", async () => {
    const db = service().database.db;
    const metadata = { client_id: "dpop-only", grant_types: ["client_credentials"], scope: "platform.catalogs.read" };
    const registration = parseClientMetadata({ ...metadata, dpop_bound_access_tokens: true }, "platform");
    const { secret } = await registerClient(prismaStores(db), registration);
    const auth = { Authorization: basic("dpop-only", secret!.secret) };
    const without = await call("token", formRequest("/connect/token", { grant_type: "client_credentials" }, auth));
    expect(without.status).toBe(400);
    expect(await without.json()).toMatchObject({ error: "invalid_dpop_proof" });
    const proof = await dpopProof(key, "POST", `${ISSUER}/connect/token`);
    const withProof = await call(
      "token",
      formRequest("/connect/token", { grant_type: "client_credentials" }, { ...auth, DPoP: proof }),
    );
    expect((await withProof.json()).token_type).toBe("DPoP");
  });

  it("takes a pushed request from a private_key_jwt client whose assertion names the PAR endpoint", async () => {
    const db = service().database.db;
    const signer = await partnerKey("ES256");
    await registerClient(
      prismaStores(db),
      parseClientMetadata(
        {
          client_id: "keyed-web",
          token_endpoint_auth_method: "private_key_jwt",
          jwks: keySet(signer),
          redirect_uris: ["https://keyed.example.com/callback"],
          scope: "openid",
        },
        "platform",
      ),
    );
    const assertion = await signed(signer, {
      iss: "keyed-web",
      sub: "keyed-web",
      aud: `${ISSUER}/connect/par`,
      exp: nowSeconds() + 60,
      jti: randomUUID(),
    });
    const response = await call(
      "par",
      formRequest("/connect/par", {
        client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
        client_assertion: assertion,
        client_id: "keyed-web",
        response_type: "code",
        redirect_uri: "https://keyed.example.com/callback",
        scope: "openid",
        state: "s",
      }),
    );
    expect(response.status).toBe(201);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const stored = await db.pushedAuthorizationRequest.findFirstOrThrow({ where: { clientId: "keyed-web" } });
    expect(stored.parameters).not.toContain("client_assertion");
  });
});
