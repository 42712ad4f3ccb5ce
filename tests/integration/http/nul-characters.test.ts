/**
 * U+0000 anywhere a caller can put text (query, path, form field, JSON string, Basic credentials, the claims of a
 * client assertion) is refused with 400 (401 for client credentials) before it reaches the database: PostgreSQL cannot store it and answered 500. Run on both databases.
 */
import { describe, expect, it } from "vitest";
import { ROUTES } from "@/lib/server/routes";
import { basic, formRequest, ISSUER, signedInAgent, useOAuthService } from "../../helpers/oauth-service";
import { userToken } from "../../helpers/platform-api";
import { testProvider } from "../../helpers/test-database";

useOAuthService();

/** A client assertion whose iss and sub hold U+0000, inside the base64url the form-level check cannot see into. */
const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const nulAssertion = `${segment({ alg: "ES256" })}.${segment({ iss: "a\u0000", sub: "a\u0000", aud: `${ISSUER}/connect/token`, exp: Math.floor(Date.now() / 1000) + 60, jti: "x" })}.${Buffer.alloc(64).toString("base64url")}`;

type Route = keyof typeof ROUTES;
const handler = (route: Route, method: string) =>
  (ROUTES[route] as Record<string, (request: Request) => Promise<Response>>)[method];

describe(`NUL characters on ${testProvider()}`, () => {
  it("are refused in queries, paths, forms, JSON and Basic credentials, with 400 and no write", async () => {
    const token = await userToken(
      "optician@demo.test",
      "Optician#2026",
      "openid platform.catalogs.read platform.supplierreg.readwrite",
    );
    const bearer = { authorization: `Bearer ${token}` };

    const cases: [string, Route, Request][] = [
      [
        "token: client_id in the form",
        "/connect/token",
        formRequest("/connect/token", {
          grant_type: "client_credentials",
          client_id: "demo\u0000",
          client_secret: "x",
        }),
      ],
      [
        "token: client_id in Basic",
        "/connect/token",
        formRequest(
          "/connect/token",
          { grant_type: "client_credentials" },
          { authorization: basic("demo-backend\u0000", "x") },
        ),
      ],
      ...(["/connect/token", "/connect/introspect", "/connect/revocation"] as const).map(
        (path): [string, Route, Request] => [
          `${path}: iss of a client assertion`,
          path,
          formRequest(path, {
            grant_type: "client_credentials",
            token: "t",
            client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
            client_assertion: nulAssertion,
          }),
        ],
      ),
      [
        "SilentLogin: user name",
        "/services/login/SilentLogin",
        formRequest("/services/login/SilentLogin", { username: "a\u0000b", password: "x" }),
      ],
      [
        "getSubCatalog: companyID",
        "/getSubCatalog.ashx",
        new Request(`${ISSUER}/getSubCatalog.ashx?companyID=a%00&catalogResourceKey=x&revision=1`),
      ],
      [
        "API: path segment",
        "/v2/[...path]",
        new Request(`${ISSUER}/v2/supplierregistrations/a%00b`, { headers: bearer }),
      ],
      [
        "API: catalog path",
        "/v2/[...path]",
        new Request(`${ISSUER}/v2/catalogs/DLAG/catalog.xml%00/revisions/1/articles`, { headers: bearer }),
      ],
      [
        "API: JSON string",
        "/v2/[...path]",
        new Request(`${ISSUER}/v2/supplierregistrations`, {
          method: "POST",
          headers: { ...bearer, "content-type": "application/json" },
          body: '{"supplierId":"F\\u0000WG","clientId":"ab"}',
        }),
      ],
    ];
    const before = await countRegistrations();
    for (const [name, route, request] of cases) {
      const response = await handler(route, request.method)(request);
      // Credentials that cannot be a client's are an authentication failure (RFC 6749 §5.2).
      expect(response.status, name).toBe(name.includes("Basic") || name.includes("assertion") ? 401 : 400);
      const text = await response.text();
      expect(text, name).toMatch(/NUL|malformed|not a well-formed signed JWT/);
      if (route === "/v2/[...path]") expect(JSON.parse(text).type, name).toBe("urn:optigate:problem:bad-request");
    }
    const agent = await signedInAgent("optician@demo.test", "Optician#2026");
    const form = await agent.post("suppliers", "/interaction/suppliers", {
      action: "request",
      supplier_id: "F\u0000WG",
      client_id: "x",
    });
    expect([form.status, await form.text()]).toEqual([400, expect.stringContaining("NUL")]);
    expect(await countRegistrations()).toBe(before);
  });
});

async function countRegistrations(): Promise<number> {
  const { getDb } = await import("@/lib/db");
  return getDb().supplierRegistration.count();
}
