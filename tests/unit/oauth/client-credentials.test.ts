import { generateKeyPairSync } from "node:crypto";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { readClientCredentials } from "@/lib/oauth/clients/client-authentication";
import { OAuthError } from "@/lib/errors/oauth-error";
import { sessionCookie } from "@/lib/session/session-cookie";
import { thrown } from "../../helpers/thrown";

const request = (authorization?: string) =>
  new Request("http://localhost/connect/token", { method: "POST", headers: authorization ? { authorization } : {} });
const basic = (text: string) => `Basic ${Buffer.from(text).toString("base64")}`;
const ISSUER = "http://localhost:3000";

describe("readClientCredentials", () => {
  it("form-decodes HTTP Basic credentials (RFC 6749 §2.3.1)", () => {
    expect(readClientCredentials(request(basic("shop%3Aeast:p%40ss+word%2B")), new Map(), ISSUER)).toEqual({
      clientId: "shop:east",
      secret: "p@ss word+",
      method: "client_secret_basic",
    });
  });
  it("reads client_secret_post and public clients", () => {
    expect(
      readClientCredentials(
        request(),
        new Map([
          ["client_id", "a"],
          ["client_secret", "s"],
        ]),
        ISSUER,
      ),
    ).toEqual({ clientId: "a", secret: "s", method: "client_secret_post" });
    expect(readClientCredentials(request(), new Map([["client_id", "a"]]), ISSUER)).toEqual({
      clientId: "a",
      method: "none",
    });
  });
  it("refuses two methods at once, a differing client_id, malformed Basic, and no client at all", () => {
    expect(
      thrown(OAuthError, () => readClientCredentials(request(basic("a:s")), new Map([["client_secret", "s"]]), ISSUER))
        .code,
    ).toBe("invalid_request");
    expect(
      thrown(OAuthError, () => readClientCredentials(request(basic("a:s")), new Map([["client_id", "b"]]), ISSUER))
        .code,
    ).toBe("invalid_request");
    expect(thrown(OAuthError, () => readClientCredentials(request(basic("no-colon")), new Map(), ISSUER)).code).toBe(
      "invalid_client",
    );
    expect(thrown(OAuthError, () => readClientCredentials(request(), new Map(), ISSUER)).code).toBe("invalid_client");
  });
});

describe("client assertions: the checks that need no key", () => {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const now = Math.floor(Date.now() / 1000);
  const valid = { iss: "partner", sub: "partner", aud: `${ISSUER}/connect/token`, exp: now + 120, jti: "j-1" };
  const sign = (claims: Record<string, unknown>, alg = "ES256") =>
    new SignJWT(claims)
      .setProtectedHeader({ alg })
      .sign(alg === "HS256" ? new TextEncoder().encode("x".repeat(32)) : privateKey);
  const unsigned = (claims: Record<string, unknown>) =>
    `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.`;
  const form = (assertion: string, extra: [string, string][] = []) =>
    new Map([
      ["client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"],
      ["client_assertion", assertion],
      ...extra,
    ]);
  const refusal = (params: Map<string, string>, authorization?: string) =>
    thrown(OAuthError, () => readClientCredentials(request(authorization), params, ISSUER));

  it("reads the client id from a well-formed assertion addressed to the token endpoint or the issuer", async () => {
    const assertion = await sign(valid);
    expect(readClientCredentials(request(), form(assertion), ISSUER)).toEqual({
      clientId: "partner",
      assertion,
      method: "private_key_jwt",
    });
    expect(
      readClientCredentials(
        request(),
        form(await sign({ ...valid, aud: [ISSUER, "other"] }), [["client_id", "partner"]]),
        ISSUER,
      ).clientId,
    ).toBe("partner");
  });
  it("names each failed check with invalid_client", async () => {
    const cases: [Record<string, unknown>, string, string?][] = [
      [{ ...valid, sub: "someone" }, "iss and sub must both be the client_id"],
      [{ ...valid, aud: "https://elsewhere.example/token" }, "aud must name the token endpoint"],
      [{ ...valid, exp: undefined }, "it has no exp"],
      [{ ...valid, exp: now - 120 }, "it has expired"],
      [{ ...valid, exp: now + 600 }, "more than 5 minutes ahead"],
      [{ ...valid, jti: undefined }, "it has no jti"],
      [{ ...valid, iat: now + 3600 }, "issued in the future (iat)"],
      [valid, `alg "HS256" is not accepted`, "HS256"],
    ];
    for (const [claims, reason, alg] of cases) {
      const error = refusal(form(await sign(claims, alg)));
      expect([error.code, error.status]).toEqual(["invalid_client", 401]);
      expect(error.description).toContain(reason);
    }
    expect(refusal(form(unsigned(valid))).description).toContain(`alg "none" is not accepted`);
    expect(refusal(form("not.a.jwt")).description).toContain("not a well-formed signed JWT");
  });
  it("refuses an assertion with a secret, another assertion type, a missing assertion and a differing client_id", async () => {
    const assertion = await sign(valid);
    expect(refusal(form(assertion), basic("partner:s")).code).toBe("invalid_request");
    expect(refusal(form(assertion, [["client_secret", "s"]])).code).toBe("invalid_request");
    expect(
      refusal(
        new Map([
          ["client_assertion_type", "urn:example:saml"],
          ["client_assertion", assertion],
        ]),
      ).code,
    ).toBe("invalid_client");
    expect(
      refusal(new Map([["client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"]])).code,
    ).toBe("invalid_request");
    expect(refusal(form(assertion, [["client_id", "other"]])).code).toBe("invalid_client");
  });
});

describe("session cookie", () => {
  it("is HttpOnly and SameSite=Lax, and Secure when OptiGate is served over https", () => {
    expect(sessionCookie("v", "http://localhost:3000")).toBe(
      "optigate_session=v; Path=/; SameSite=Lax; HttpOnly; Max-Age=43200",
    );
    expect(sessionCookie("v", "https://id.example.com")).toContain("; Secure");
  });
});
