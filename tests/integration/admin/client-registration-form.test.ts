/**
 * The registration form by kind (issue 24): each kind's fields become the client metadata the JSON view submits and
 * go through the same validation; a refusal names the field and keeps the draft in a sealed cookie, not in the URL.
 */
import { describe, expect, it } from "vitest";
import { unsealedCookieValue } from "@/lib/http/sealed-cookie";
import type { AdminFormOutcome } from "@/lib/forms/admin-form-problem";
import { SECRET_KEY, signedInAgent, useOAuthService, type UserAgent } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();

function outcome(agent: UserAgent) {
  return unsealedCookieValue<AdminFormOutcome>(
    "optigate_admin_form",
    agent.cookies.get("optigate_admin_form"),
    SECRET_KEY,
  )!;
}

/** A form post with repeated scope fields, as the browser sends the checkboxes. */
async function register(agent: UserAgent, fields: Record<string, string>, scopes: string[] = []) {
  return agent.post("admin", "/interaction/admin", { action: "register", ...fields, scope: scopes });
}

describe(`operator registration form on ${testProvider()}`, () => {
  it("registers a client of each kind from the form's fields", async () => {
    const admin = await signedInAgent("admin@demo.test", "Admin#2026");
    const db = () => service().database.db;
    const browser = await register(
      admin,
      {
        kind: "browser",
        client_id: "form-spa",
        client_name: "Lens finder",
        client_name_de: "Glassucher",
        redirect_uris: "https://spa.example/cb\r\n\r\n  https://spa.example/cb2 ",
        allowed_cors_origins: "https://spa.example",
        offline_access: "on", // not a browser client's field: left out
      },
      ["openid", "platform.catalogs.read"],
    );
    expect(browser.headers.get("location")).toBe("/admin/clients/form-spa?created=1");
    const spa = await db().client.findUniqueOrThrow({ where: { id: "form-spa" } });
    expect([spa.kind, spa.tokenEndpointAuthMethod, spa.offlineAccess]).toEqual(["browser", "none", false]);
    expect(JSON.parse(spa.redirectUris)).toEqual(["https://spa.example/cb", "https://spa.example/cb2"]);
    expect(JSON.parse(spa.names)).toEqual({ default: "Lens finder", de: "Glassucher" });
    expect(JSON.parse(spa.corsOrigins)).toEqual(["https://spa.example"]);

    await register(
      admin,
      {
        kind: "native",
        client_id: "form-app",
        client_name: "App",
        redirect_uris: "com.example.app:/cb",
        offline_access: "on",
      },
      ["openid"],
    );
    const app = await db().client.findUniqueOrThrow({ where: { id: "form-app" } });
    expect([app.kind, app.offlineAccess]).toEqual(["native", true]);

    await register(admin, {
      kind: "web",
      client_id: "form-web",
      client_name: "Shop",
      redirect_uris: "https://shop.example/cb",
    });
    const web = await db().client.findUniqueOrThrow({ where: { id: "form-web" } });
    expect([web.kind, web.tokenEndpointAuthMethod]).toEqual(["web", "client_secret_basic"]);
    expect(JSON.parse(web.allowedScopes)).toEqual(["openid", "profile", "email"]);
    expect(admin.cookies.has("optigate_new_secret")).toBe(true);

    await register(
      admin,
      { kind: "backend", client_id: "form-batch", client_name: "Batch", company_id: "demo-company-frames" },
      ["platform.catalogs.read"],
    );
    const batch = await db().client.findUniqueOrThrow({ where: { id: "form-batch" } });
    expect([batch.kind, batch.companyId]).toEqual(["backend", "demo-company-frames"]);
    expect(JSON.parse(batch.grantTypes)).toEqual(["client_credentials"]);
  });

  it("stores the DPoP and pushed-request switches ticked in the form, for the kinds they fit", async () => {
    const admin = await signedInAgent("admin@demo.test", "Admin#2026");
    const db = () => service().database.db;
    const switches = { dpop_bound_access_tokens: "on", require_pushed_authorization_requests: "on" };
    await register(
      admin,
      {
        kind: "browser",
        client_id: "form-spa-dpop",
        client_name: "Bound finder",
        redirect_uris: "https://spa.example/cb",
        allowed_cors_origins: "https://spa.example",
        ...switches,
      },
      ["openid"],
    );
    const spa = await db().client.findUniqueOrThrow({ where: { id: "form-spa-dpop" } });
    expect([spa.dpopBoundAccessTokens, spa.requirePushedAuthorizationRequests]).toEqual([true, true]);

    await register(admin, {
      kind: "web",
      client_id: "form-web-par",
      client_name: "Pushed shop",
      redirect_uris: "https://shop.example/cb",
      require_pushed_authorization_requests: "on",
    });
    const web = await db().client.findUniqueOrThrow({ where: { id: "form-web-par" } });
    expect([web.dpopBoundAccessTokens, web.requirePushedAuthorizationRequests]).toEqual([false, true]);

    await register(admin, { kind: "backend", client_id: "form-batch-dpop", client_name: "Bound batch", ...switches }, [
      "platform.catalogs.read",
    ]);
    const batch = await db().client.findUniqueOrThrow({ where: { id: "form-batch-dpop" } });
    // A backend client sends no authorization requests: the form has no such box for it, and a posted one is ignored.
    expect([batch.dpopBoundAccessTokens, batch.requirePushedAuthorizationRequests]).toEqual([true, false]);
  });

  it("shows the ticked switches again after a refusal, and refuses DPoP-bound tokens with the implicit grant", async () => {
    const admin = await signedInAgent("admin@demo.test", "Admin#2026");
    await register(admin, {
      kind: "native",
      client_name: "No callback",
      dpop_bound_access_tokens: "on",
      require_pushed_authorization_requests: "on",
    });
    expect(outcome(admin)).toMatchObject({
      problem: { key: "redirect_uris", field: "redirect_uris" },
      draft: { kind: "native", dpop_bound_access_tokens: "on", require_pushed_authorization_requests: "on" },
    });

    // The form registers no implicit clients; the JSON view can, and is refused the switch with it.
    const metadata = JSON.stringify({
      client_id: "json-spa-implicit",
      token_endpoint_auth_method: "none",
      grant_types: ["implicit"],
      redirect_uris: ["https://spa.example/cb"],
      allowed_cors_origins: ["https://spa.example"],
      dpop_bound_access_tokens: true,
    });
    const refused = await admin.post("admin", "/interaction/admin", { action: "register", metadata });
    expect(refused.headers.get("location")).toBe("/admin/clients#register");
    expect(outcome(admin).problem).toEqual({
      key: "metadata",
      field: "metadata",
      reason: expect.stringMatching(/^dpop_bound_access_tokens cannot be true with the implicit grant/),
    });
    expect(await service().database.db.client.findUnique({ where: { id: "json-spa-implicit" } })).toBeNull();
  });

  it("names the field of a refusal and keeps the draft out of the URL", async () => {
    const admin = await signedInAgent("admin@demo.test", "Admin#2026");
    const refused = await register(admin, {
      kind: "browser",
      client_name: "Finder",
      redirect_uris: "https://spa.example/cb",
      allowed_cors_origins: "https://spa.example/with/path",
    });
    expect(refused.headers.get("location")).toBe("/admin/clients#register");
    expect(outcome(admin)).toEqual({
      action: "register",
      problem: { key: "allowed_cors_origins", field: "allowed_cors_origins", value: "https://spa.example/with/path" },
      draft: {
        kind: "browser",
        client_name: "Finder",
        redirect_uris: "https://spa.example/cb",
        allowed_cors_origins: "https://spa.example/with/path",
      },
    });

    await register(admin, { kind: "backend", client_name: "Never saved" });
    expect(outcome(admin).problem).toEqual({ key: "scope", field: "scope" });
    await register(admin, {
      kind: "web",
      client_id: "demo-web",
      client_name: "Again",
      redirect_uris: "https://x.example/cb",
    });
    expect(outcome(admin).problem).toEqual({ key: "clientIdTaken", field: "client_id", value: "demo-web" });
    await register(admin, { kind: "web", client_name: "Shop" });
    expect(outcome(admin).problem).toEqual({ key: "redirect_uris", field: "redirect_uris" });
    expect(await service().database.db.client.count({ where: { names: { contains: "Never saved" } } })).toBe(0);
  });

  it("keeps its cookie small: a draft too long to keep is left out, the refusal stays", async () => {
    const admin = await signedInAgent("admin@demo.test", "Admin#2026");
    const long = Array.from(
      { length: 45 },
      (_, i) => `http://not-allowed-${i}.example/a-long-path-to-the-callback-of-this-application`,
    );
    await register(admin, { kind: "web", client_name: "Shop", redirect_uris: long.join("\n") });
    const kept = outcome(admin);
    expect(kept.draft).toBeUndefined();
    expect(kept.problem).toMatchObject({ key: "redirect_uris", field: "redirect_uris" });
    expect(admin.cookies.get("optigate_admin_form")!.length).toBeLessThan(4000);
  });

  it("puts a secret form's refusal at its input", async () => {
    const admin = await signedInAgent("admin@demo.test", "Admin#2026");
    await admin.post("admin", "/interaction/admin", {
      action: "secret-add",
      client_id: "demo-web",
      expires: "2001-01-01",
    });
    expect(outcome(admin)).toEqual({ action: "secret-add", problem: { key: "expiryPast", field: "new-expires" } });
  });
});
