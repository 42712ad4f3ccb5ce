import { describe, expect, it } from "vitest";
import { ISSUER, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

useOAuthService();

type Route = {
  OPTIONS?: (r: Request) => Promise<Response>;
  GET?: (r: Request) => Promise<Response>;
  POST?: (r: Request) => Promise<Response>;
};
const endpoints: [string, string, () => Promise<Route>][] = [
  ["token", "POST", () => import("@/app/connect/token/route")],
  ["revocation", "POST", () => import("@/app/connect/revocation/route")],
  ["userinfo", "GET", () => import("@/app/connect/userinfo/route")],
  ["discovery", "GET", () => import("@/app/.well-known/openid-configuration/route")],
  ["JWKS", "GET", () => import("@/app/.well-known/openid-configuration/jwks/route")],
];
const spaOrigin = "http://localhost:5173";

describe(`CORS on ${testProvider()}`, () => {
  it.each(endpoints)(
    "%s answers a registered browser origin, preflight included, and nobody else",
    async (_name, method, load) => {
      const route = await load();
      const preflight = await route.OPTIONS!(
        new Request(`${ISSUER}/x`, {
          method: "OPTIONS",
          headers: { Origin: spaOrigin, "Access-Control-Request-Method": method },
        }),
      );
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe(spaOrigin);
      expect(preflight.headers.get("access-control-allow-methods")).toContain(method);
      expect(preflight.headers.get("access-control-allow-headers")).toContain("Authorization");

      const refused = await route.OPTIONS!(
        new Request(`${ISSUER}/x`, { method: "OPTIONS", headers: { Origin: "https://evil.example" } }),
      );
      expect(refused.status).toBe(403);
      expect(refused.headers.get("access-control-allow-origin")).toBeNull();

      const handler = (route.GET ?? route.POST)!;
      const init = (origin: string): RequestInit => ({
        method,
        headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
        ...(method === "POST" ? { body: "" } : {}),
      });
      const allowed = await handler(new Request(`${ISSUER}/x`, init(spaOrigin)));
      expect(allowed.headers.get("access-control-allow-origin")).toBe(spaOrigin);
      expect(allowed.headers.get("vary")).toContain("Origin");
      const other = await handler(new Request(`${ISSUER}/x`, init("https://evil.example")));
      expect(other.headers.get("access-control-allow-origin")).toBeNull();
      const web = await handler(new Request(`${ISSUER}/x`, init("http://localhost:4000")));
      expect(web.headers.get("access-control-allow-origin")).toBeNull(); // demo-web is no browser client
    },
  );

  it("never sends CORS headers from the authorization endpoint", async () => {
    const { GET } = await import("@/app/connect/authorize/route");
    const response = await GET(
      new Request(`${ISSUER}/connect/authorize?client_id=demo-spa`, { headers: { Origin: spaOrigin } }),
    );
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });
});
