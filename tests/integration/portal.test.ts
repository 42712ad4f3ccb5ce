import { prismaStores } from "@/lib/store/stores";
import { describe, expect, it } from "vitest";
import { listApplicationGrants } from "@/lib/account/application-grants";
import { serviceContextFor } from "@/lib/service-context";
import { loadConfig } from "@/lib/config";
import {
  authorizeWithConsent,
  basic,
  call,
  demoWeb,
  formRequest,
  refreshDemoWeb,
  UserAgent,
  useOAuthService,
} from "../helpers/oauth-service";
import { testProvider } from "../helpers/test-database";

const service = useOAuthService();
const offline = {
  client_id: demoWeb.client_id,
  redirect_uri: demoWeb.redirect_uri,
  response_type: "code",
  scope: "openid profile offline_access",
  state: "s",
};

async function offlineGrant(agent: UserAgent) {
  const { code } = await authorizeWithConsent(agent, offline);
  return (
    await call(
      "token",
      formRequest(
        "/connect/token",
        { grant_type: "authorization_code", code, redirect_uri: demoWeb.redirect_uri },
        { Authorization: basic(demoWeb.client_id, demoWeb.secret) },
      ),
    )
  ).json();
}

describe(`application access portal on ${testProvider()}`, () => {
  it("lists each granted application, localized, with scopes, dates, offline access and last use", async () => {
    const agent = new UserAgent();
    const tokens = await offlineGrant(agent);
    await refreshDemoWeb(tokens.refresh_token);
    const db = service().database.db;
    const user = await db.user.findUniqueOrThrow({ where: { email: "optician@demo.test" } });
    const [english] = await listApplicationGrants(serviceContextFor(prismaStores(db), loadConfig()), user.id, "en");
    expect(english).toMatchObject({ clientId: "demo-web", name: "Demo web shop", offline: true });
    expect(english.scopes.map((s) => s.title)).toEqual(["Sign you in", "Your profile", "Stay connected"]);
    expect(english.lastUsedAt!.getTime()).toBeGreaterThanOrEqual(english.grantedAt.getTime());
    const [german] = await listApplicationGrants(serviceContextFor(prismaStores(db), loadConfig()), user.id, "de");
    expect(german.name).toBe("Demo-Webshop");
    expect(german.scopes.map((s) => s.title)).toContain("Verbunden bleiben");
  });

  it("revokes an application: its refresh fails with invalid_grant and its next sign-in asks for consent", async () => {
    const agent = new UserAgent();
    const tokens = await offlineGrant(agent);
    const response = await agent.post("portal", "/interaction/portal", { action: "revoke", client_id: "demo-web" });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/portal/applications?revoked=demo-web");
    expect((await (await refreshDemoWeb(tokens.refresh_token)).json()).error).toBe("invalid_grant");
    const again = await agent.authorize({ ...offline, scope: "openid profile" });
    expect(again.headers.get("location")).toMatch(/^\/consent\?/);
    const user = await service().database.db.user.findUniqueOrThrow({ where: { email: "optician@demo.test" } });
    expect(
      await listApplicationGrants(serviceContextFor(prismaStores(service().database.db), loadConfig()), user.id, "en"),
    ).toEqual([]);
  });

  it("needs a session and a valid CSRF token", async () => {
    const anonymous = await new UserAgent().post("portal", "/interaction/portal", {
      action: "revoke",
      client_id: "demo-web",
    });
    expect(anonymous.headers.get("location")).toBe("/login?returnUrl=%2Fportal%2Fapplications");
    const agent = new UserAgent();
    await offlineGrant(agent);
    const forged = await agent.post("portal", "/interaction/portal", {
      action: "revoke",
      client_id: "demo-web",
      csrf_token: "forged",
    });
    expect(forged.headers.get("location")).toBe("/portal/applications?error=form_expired");
  });

  it("signs the user out of every session", async () => {
    const [first, second] = [new UserAgent(), new UserAgent()];
    await offlineGrant(first);
    await offlineGrant(second);
    const response = await first.post("portal", "/interaction/portal", { action: "sign-out-everywhere" });
    expect(response.headers.get("location")).toBe("/?signedOut=everywhere");
    for (const agent of [first, second]) {
      const silent = await agent.authorize({ ...offline, scope: "openid", prompt: "none" });
      expect(new URL(silent.headers.get("location")!).searchParams.get("error")).toBe("login_required");
    }
  });
});
