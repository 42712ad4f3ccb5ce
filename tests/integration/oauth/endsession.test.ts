import { describe, expect, it } from "vitest";
import {
  authorizeWithConsent,
  basic,
  call,
  callbackParams,
  demoWeb,
  formRequest,
  UserAgent,
  useOAuthService,
} from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const postLogout = "http://localhost:4000/";
const authorize = {
  client_id: demoWeb.client_id,
  redirect_uri: demoWeb.redirect_uri,
  response_type: "code",
  scope: "openid profile",
  state: "s",
};

async function signedIn(): Promise<{ agent: UserAgent; idToken: string; accessToken: string }> {
  const agent = new UserAgent();
  const { code } = await authorizeWithConsent(agent, authorize);
  const tokens = await (
    await call(
      "token",
      formRequest(
        "/connect/token",
        { grant_type: "authorization_code", code, redirect_uri: demoWeb.redirect_uri },
        { Authorization: basic(demoWeb.client_id, demoWeb.secret) },
      ),
    )
  ).json();
  return { agent, idToken: tokens.id_token, accessToken: tokens.access_token };
}

const endSession = (agent: UserAgent, params: Record<string, string>) =>
  agent.get("endsession", `/connect/endsession?${new URLSearchParams(params)}`);

async function sessionEnded(agent: UserAgent): Promise<boolean> {
  const silent = await agent.authorize({ ...authorize, prompt: "none" });
  return callbackParams(silent).get("error") === "login_required";
}

describe(`GET|POST /connect/endsession on ${testProvider()}`, () => {
  it("signs out at once with a valid hint and redirects to the registered post-logout URI with state", async () => {
    const { agent, idToken } = await signedIn();
    const response = await endSession(agent, {
      id_token_hint: idToken,
      post_logout_redirect_uri: postLogout,
      state: "bye",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("http://localhost:4000/?state=bye");
    expect(
      response.headers.getSetCookie().some((c) => c.startsWith("optigate_session=;") && c.includes("Max-Age=0")),
    ).toBe(true);
    expect(await sessionEnded(agent)).toBe(true);
    const session = await service().database.db.loginSession.findFirstOrThrow({ orderBy: { createdAt: "desc" } });
    expect(session.endedAt).not.toBeNull();
  });

  it("never redirects to an unregistered post-logout URI, and signs out all the same", async () => {
    const { agent, idToken } = await signedIn();
    const response = await endSession(agent, {
      id_token_hint: idToken,
      post_logout_redirect_uri: "https://evil.example/",
      state: "x",
    });
    expect(response.headers.get("location")).toBe("/signout?done=1");
    expect(await sessionEnded(agent)).toBe(true);
  });

  it("takes the registered URI without its trailing slash, the same URI after RFC 3986 normalization", async () => {
    const { agent, idToken } = await signedIn();
    const response = await endSession(agent, {
      id_token_hint: idToken,
      post_logout_redirect_uri: "http://localhost:4000",
      state: "bye",
    });
    expect(response.headers.get("location")).toBe("http://localhost:4000/?state=bye");
  });

  it.each([
    "http://localhost:4000//",
    "http://localhost:4000/x",
    "HTTP://localhost:4000/",
    "http://localhost:4000?",
    "http://localhost:40000",
  ])("takes nothing looser than the registered URI: not %s", async (uri) => {
    const other = await signedIn();
    expect(
      (await endSession(other.agent, { id_token_hint: other.idToken, post_logout_redirect_uri: uri })).headers.get(
        "location",
      ),
    ).toBe("/signout?done=1");
  });

  it("asks for confirmation without a hint, then redirects to the client's registered URI", async () => {
    const { agent } = await signedIn();
    const response = await endSession(agent, {
      client_id: "demo-web",
      post_logout_redirect_uri: postLogout,
      state: "st",
    });
    const location = response.headers.get("location")!;
    expect(location.startsWith("/signout?")).toBe(true);
    expect(await sessionEnded(agent)).toBe(false);
    const confirmed = await agent.post("signout", "/interaction/signout", {
      ...Object.fromEntries(new URLSearchParams(location.split("?")[1])),
      decision: "logout",
    });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get("location")).toBe("http://localhost:4000/?state=st");
    expect(await sessionEnded(agent)).toBe(true);
  });

  it("never redirects after a bad hint, even to a registered URI", async () => {
    const { agent, idToken } = await signedIn();
    const forged = `${idToken.slice(0, -6)}AAAAAA`;
    const response = await endSession(agent, { id_token_hint: forged, post_logout_redirect_uri: postLogout });
    expect(response.headers.get("location")).toMatch(/^\/signout\?/);
    const confirmed = await agent.post("signout", "/interaction/signout", {
      id_token_hint: forged,
      post_logout_redirect_uri: postLogout,
      decision: "logout",
    });
    expect(confirmed.headers.get("location")).toBe("/signout?done=1");
  });

  it("asks for confirmation when the hint names another user than the session's", async () => {
    const { idToken } = await signedIn();
    const other = new UserAgent();
    const start = await other.authorize(authorize);
    await other.login(
      new URL(start.headers.get("location")!, "http://x").searchParams.get("returnUrl")!,
      "supplier@demo.test",
      "Supplier#2026",
    );
    const response = await endSession(other, { id_token_hint: idToken, post_logout_redirect_uri: postLogout });
    expect(response.headers.get("location")).toMatch(/^\/signout\?/);
  });

  it("takes an access token of the same user for no ID token: it asks first and signs nobody out", async () => {
    const { agent, accessToken } = await signedIn();
    const response = await endSession(agent, { id_token_hint: accessToken, post_logout_redirect_uri: postLogout });
    expect(response.headers.get("location")).toMatch(/^\/signout\?/);
    expect(await sessionEnded(agent)).toBe(false);
  });

  it("takes an ID token issued to a client that is no longer registered for no hint", async () => {
    const { agent, idToken } = await signedIn();
    const db = service().database.db;
    const row = await db.client.findUniqueOrThrow({ where: { id: "demo-web" } });
    await db.client.update({ where: { id: "demo-web" }, data: { id: "demo-web-renamed" } });
    const { forgetClient } = await import("@/lib/store/client-store");
    let location: string | null;
    try {
      forgetClient();
      location = (
        await endSession(agent, { id_token_hint: idToken, post_logout_redirect_uri: postLogout })
      ).headers.get("location");
    } finally {
      await db.client.update({ where: { id: "demo-web-renamed" }, data: { id: row.id } });
      forgetClient();
    }
    expect(location).toMatch(/^\/signout\?/);
    expect(await sessionEnded(agent)).toBe(false);
  });

  it("refuses a confirmation without a valid CSRF token", async () => {
    const { agent } = await signedIn();
    const refused = await agent.post("signout", "/interaction/signout", { decision: "logout", csrf_token: "forged" });
    expect(refused.headers.get("location")).toBe("/signout?error=form_expired");
    expect(await sessionEnded(agent)).toBe(false);
  });
});
