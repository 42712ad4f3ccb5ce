/**
 * Every route of a management API resource refused to a token that may not call it: a company's own client (its
 * company scopes reach no operator resource) or an operator's client with other scopes. Path parameters are filled
 * with a name that exists nowhere: the refusal comes before anything is looked up.
 */
import { expect } from "vitest";
import type { ManageRoute } from "@/lib/api/manage/manage-call";
import { manage } from "./manage-api";

export async function expectEveryRouteRefused(routes: readonly ManageRoute[], token: string): Promise<void> {
  for (const route of routes) {
    const path = route.path.replace("/manage/v1", "").replace(/\{[^}]+\}/g, "nobody-here");
    const body = route.method === "GET" || route.method === "DELETE" ? undefined : {};
    const { response, body: problem } = await manage(route.method, path, { token, body });
    expect(response.status, `${route.method} ${route.path}`).toBe(403);
    expect(problem.type).toBe("urn:optigate:problem:insufficient-scope");
  }
}
