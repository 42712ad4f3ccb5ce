/**
 * The route table is the one place an endpoint is declared: every route file under app/ exports exactly its entry's
 * handlers, every route file has an entry, the lean front serves exactly the entries marked fast, CORS entries
 * answer preflights, and the OpenAPI document lists exactly the API's routes.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { API_ROUTES } from "@/lib/api/api-routes";
import { fastRoute } from "@/lib/server/fast-front";
import { METHODS, PROTOCOL_ROUTES, ROUTE_TABLE, ROUTES, type RoutePath, type RouteSpec } from "@/lib/server/routes";
import { ISSUER, useOAuthService } from "../../helpers/oauth-service";
import { DOCUMENT } from "../../helpers/platform-api";

useOAuthService();
const ROOT = path.resolve(import.meta.dirname, "../../..");
const PATHS = Object.keys(ROUTE_TABLE) as RoutePath[];
const spec = (routePath: RoutePath) => ROUTE_TABLE[routePath] as RouteSpec;
const handlers = (routePath: RoutePath) => ROUTES[routePath] as Record<string, unknown>;

function routeFiles(directory: string): string[] {
  return readdirSync(path.join(ROOT, directory), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(directory, entry.name);
    if (entry.isDirectory()) return routeFiles(relative);
    return entry.name === "route.ts" ? [relative] : [];
  });
}

/** A URL the entry answers: the API's catch-all is tried with one of its paths. */
const sampleUrl = (routePath: RoutePath) => routePath.replace("[...path]", "catalogs");

describe("the route table", () => {
  it("has a route file for every entry and an entry for every route file", () => {
    const files = routeFiles("app").map((file) => `/${path.dirname(path.relative("app", file))}`);
    expect(files.sort()).toEqual([...PATHS].sort());
  });

  it.each(PATHS)("app%s/route.ts exports the entry's handlers, and nothing else", async (routePath) => {
    const file = path.join(ROOT, "app", routePath, "route.ts");
    const module = (await import(/* @vite-ignore */ file)) as Record<string, unknown>;
    const exported = Object.keys(module).filter((name) => (METHODS as readonly string[]).includes(name));
    expect(exported.sort()).toEqual(Object.keys(handlers(routePath)).sort());
    for (const method of exported) expect(module[method]).toBe(handlers(routePath)[method]);
  });

  it.each(PATHS)("the lean front serves %s exactly when the entry says fast", (routePath) => {
    for (const method of Object.keys(handlers(routePath))) {
      const served = fastRoute(method, sampleUrl(routePath));
      if (!spec(routePath).fast) expect(served, method).toBeUndefined();
      else if (method === "POST" && spec(routePath).protocol)
        expect(served).toEqual({ protocol: PROTOCOL_ROUTES[routePath] });
      else expect(served).toEqual({ web: handlers(routePath)[method] });
    }
  });

  it.each(PATHS)("%s answers preflights exactly when the entry allows CORS", (routePath) => {
    expect("OPTIONS" in handlers(routePath)).toBe(spec(routePath).cors === true);
  });

  it.each(PATHS.filter((entry) => "GET" in handlers(entry)))(
    "%s answers HEAD through its GET handler, as Next.js calls it, without a server error",
    async (routePath) => {
      const get = handlers(routePath).GET as (request: Request) => Promise<Response>;
      const response = await get(new Request(`${ISSUER}${sampleUrl(routePath)}`, { method: "HEAD" }));
      expect(response.status).toBeLessThan(500);
    },
  );

  it("protocol endpoints are POST endpoints for both fronts", () => {
    for (const routePath of PATHS.filter((entry) => spec(entry).protocol))
      expect(typeof PROTOCOL_ROUTES[routePath], routePath).toBe("function");
    expect(Object.keys(PROTOCOL_ROUTES).sort()).toEqual(PATHS.filter((entry) => spec(entry).protocol).sort());
  });

  it("the OpenAPI document lists exactly the API's routes, each secured by its scopes", () => {
    const operations = Object.entries(DOCUMENT.paths).flatMap(([apiPath, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        route: `${method.toUpperCase()} ${apiPath}`,
        security: (operation as { security: { oauth2: string[] }[] }).security,
      })),
    );
    expect(operations).toEqual(
      API_ROUTES.map((route) => ({
        route: `${route.method} ${route.path}`,
        security: route.scopes.map((scope) => ({ oauth2: [`platform.${scope}`] })),
      })),
    );
  });
});
