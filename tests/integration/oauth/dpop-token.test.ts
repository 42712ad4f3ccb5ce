/**
 * DPoP at the token endpoint (RFC 9449 §5): a proof binds the access token (`cnf.jkt`, token_type DPoP) for every
 * grant, a public client's refresh token to the key, and every malformed proof is refused with invalid_dpop_proof,
 * leaving nothing written but the replay entry.
 */
import { decodeJwt, SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { basic, call, formRequest, ISSUER, useOAuthService } from "../../helpers/oauth-service";
import { dpopProof, proofKey, type ProofKey } from "../../helpers/dpop-proofs";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const TOKEN_URL = `${ISSUER}/connect/token`;
const backend = { Authorization: basic("demo-backend", "demo-backend-secret") };
const clientCredentials = (headers: Record<string, string>) =>
  call("token", formRequest("/connect/token", { grant_type: "client_credentials" }, { ...backend, ...headers }));

let es256: ProofKey;
beforeAll(async () => {
  es256 = await proofKey("ES256");
});

async function refusal(response: Response): Promise<string> {
  expect(response.status).toBe(400);
  expect(response.headers.get("cache-control")).toBe("no-store");
  const body = await response.json();
  return `${body.error}: ${body.error_description}`;
}

describe(`DPoP at the token endpoint on ${testProvider()}`, () => {
  it.each(["ES256", "EdDSA", "RS256", "PS256"])("binds a client_credentials token to a %s key", async (alg) => {
    const key = alg === "ES256" ? es256 : await proofKey(alg);
    const response = await clientCredentials({ DPoP: await dpopProof(key, "POST", TOKEN_URL) });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.token_type).toBe("DPoP");
    expect(decodeJwt(body.access_token).cnf).toEqual({ jkt: key.jkt });
  });

  it("issues a Bearer token without a proof, with no cnf", async () => {
    const body = await (await clientCredentials({})).json();
    expect(body.token_type).toBe("Bearer");
    expect(decodeJwt(body.access_token).cnf).toBeUndefined();
  });

  it("ignores the query and fragment of htu and compares scheme and host normalized", async () => {
    const htu = "HTTP://LOCALHOST:3000/connect/token?x=1#y";
    const response = await clientCredentials({ DPoP: await dpopProof(es256, "POST", htu) });
    expect(response.status).toBe(200);
  });

  const refusals: [string, () => Promise<string>, RegExp][] = [
    [
      "a private key in the header",
      async () => dpopProof(es256, "POST", TOKEN_URL, { header: { jwk: es256.privateJwk } }),
      /public key/,
    ],
    ["alg none", async () => unsigned({ typ: "dpop+jwt", alg: "none", jwk: es256.publicJwk }), /alg must be one of/],
    ["an HMAC alg", async () => hmacProof(), /alg must be one of/],
    [
      "another typ",
      async () => dpopProof(es256, "POST", TOKEN_URL, { header: { typ: "JWT" } }),
      /typ must be dpop\+jwt/,
    ],
    ["a wrong htu", async () => dpopProof(es256, "POST", `${ISSUER}/connect/revocation`), /htu must be/],
    ["another host in htu", async () => dpopProof(es256, "POST", "http://localhost:3001/connect/token"), /htu must be/],
    ["a wrong htm", async () => dpopProof(es256, "GET", TOKEN_URL), /htm must be POST/],
    [
      "a stale iat",
      async () => dpopProof(es256, "POST", TOKEN_URL, { claims: { iat: now() - 120 } }),
      /iat must be within/,
    ],
    [
      "a future iat",
      async () => dpopProof(es256, "POST", TOKEN_URL, { claims: { iat: now() + 120 } }),
      /iat must be within/,
    ],
    ["no jti", async () => dpopProof(es256, "POST", TOKEN_URL, { claims: { jti: undefined } }), /jti/],
    [
      "two DPoP headers",
      async () => `${await dpopProof(es256, "POST", TOKEN_URL)}, ${await dpopProof(es256, "POST", TOKEN_URL)}`,
      /exactly one/,
    ],
    [
      "a proof over 8 KB",
      async () => dpopProof(es256, "POST", TOKEN_URL, { claims: { pad: "x".repeat(9000) } }),
      /longer than 8192/,
    ],
    [
      "a signature by another key",
      async () => dpopProof(es256, "POST", TOKEN_URL, { header: { jwk: (await proofKey()).publicJwk } }),
      /does not verify/,
    ],
    ["no JWT at all", async () => "not-a-jwt", /well-formed/],
    [
      "a jwk whose kty names an object property",
      async () => dpopProof(es256, "POST", TOKEN_URL, { header: { jwk: { kty: "constructor" } } }),
      /EC, OKP or RSA/,
    ],
  ];

  it.each(refusals)("refuses %s with invalid_dpop_proof and issues nothing", async (_name, make, reason) => {
    const message = await refusal(await clientCredentials({ DPoP: await make() }));
    expect(message).toMatch(/^invalid_dpop_proof: /);
    expect(message).toMatch(reason);
  });

  it("refuses a replayed proof (its jti was used)", async () => {
    const proof = await dpopProof(es256, "POST", TOKEN_URL);
    expect((await clientCredentials({ DPoP: proof })).status).toBe(200);
    expect(await refusal(await clientCredentials({ DPoP: proof }))).toMatch(/^invalid_dpop_proof: .*used before/);
  });

  it("writes only the replay entry for a good proof of a refused request", async () => {
    const db = service().database.db;
    const before = await db.usedAssertion.count();
    const proof = await dpopProof(es256, "POST", TOKEN_URL);
    const response = await call(
      "token",
      formRequest("/connect/token", { grant_type: "client_credentials", scope: "openid" }, { ...backend, DPoP: proof }),
    );
    expect((await response.json()).error).toBe("invalid_scope");
    expect(await db.usedAssertion.count()).toBe(before + 1);
  });
});

const now = () => Math.floor(Date.now() / 1000);

function unsigned(header: Record<string, unknown>): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${encode(header)}.${encode({ jti: "a", htm: "POST", htu: TOKEN_URL, iat: now() })}.`;
}

function hmacProof(): Promise<string> {
  return new SignJWT({ jti: crypto.randomUUID(), htm: "POST", htu: TOKEN_URL, iat: now() })
    .setProtectedHeader({ typ: "dpop+jwt", alg: "HS256", jwk: { kty: "oct", k: "c2VjcmV0" } as never })
    .sign(new TextEncoder().encode("secret-secret-secret-secret-secret"));
}
