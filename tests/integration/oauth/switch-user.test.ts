/** "Not you?" on the consent page: the session ends and a fresh login continues the same authorization request. */
import { describe, expect, it } from "vitest";
import {
  callbackParams,
  demoWeb,
  interactionOf,
  returnUrlOf,
  UserAgent,
  useOAuthService,
} from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";
import { SESSION_COOKIE } from "@/lib/session/session-cookie";
import { userTokens } from "../../helpers/platform-api";

const service = useOAuthService();
const authorize = {
  client_id: demoWeb.client_id,
  redirect_uri: demoWeb.redirect_uri,
  response_type: "code",
  scope: "openid profile",
  state: "s",
  prompt: "consent",
  login_hint: "optician@demo.test",
};

/** An agent at the consent prompt of the request above, signed in as the optician. */
async function atConsent(extra: Record<string, string> = {}): Promise<{ agent: UserAgent; interaction: string }> {
  const agent = new UserAgent();
  const login = await agent.authorize({ ...authorize, ...extra });
  const signedIn = await agent.login(returnUrlOf(login), "optician@demo.test", "Optician#2026");
  const consent = await agent.authorizeUrl(signedIn.headers.get("location")!);
  return { agent, interaction: interactionOf(consent) };
}

const switchUser = (agent: UserAgent, interaction: string, overrides: Record<string, string> = {}) =>
  agent.consent(interaction, "deny", [], { decision: "switch_user", ...overrides });

describe(`“not you?” on the consent page on ${testProvider()}`, () => {
  it("ends the session, withdraws the prompt and asks for a login to the same request, without the hint", async () => {
    const { agent, interaction } = await atConsent();
    const response = await switchUser(agent, interaction);
    expect(response.status).toBe(303);
    expect(agent.cookies.has(SESSION_COOKIE)).toBe(false);
    const returnUrl = new URL(returnUrlOf(response), "http://local.invalid");
    expect(returnUrl.pathname).toBe("/connect/authorize");
    const { login_hint: _hint, ...rest } = authorize;
    expect(Object.fromEntries(returnUrl.searchParams)).toEqual(rest);
    const session = await service().database.db.loginSession.findFirstOrThrow({ orderBy: { createdAt: "desc" } });
    expect(session.endedAt).not.toBeNull();
    expect(await service().database.db.authorizationInteraction.count({ where: { loginSessionId: session.id } })).toBe(
      0,
    );

    const next = await agent.login(returnUrlOf(response), "frames@demo.test", "Frames#2026");
    const consent = await agent.authorizeUrl(next.headers.get("location")!);
    expect(consent.headers.get("location")).toMatch(/^\/consent\?/);
    const allowed = await agent.consent(interactionOf(consent), "allow", ["openid", "profile"]);
    expect(callbackParams(allowed).get("code")).toBeTruthy();
  });

  it("drops an id_token_hint too, so that someone else can sign in to the same request", async () => {
    const { id_token } = await userTokens("optician@demo.test", "Optician#2026", "openid");
    const { agent, interaction } = await atConsent({ id_token_hint: id_token! });
    const response = await switchUser(agent, interaction);
    expect(new URL(returnUrlOf(response), "http://local.invalid").searchParams.has("id_token_hint")).toBe(false);
    const next = await agent.login(returnUrlOf(response), "frames@demo.test", "Frames#2026");
    const consent = await agent.authorizeUrl(next.headers.get("location")!);
    expect(consent.headers.get("location")).toMatch(/^\/consent\?/);
  });

  it("does nothing without the form's CSRF token, nor for a prompt that is not the session's", async () => {
    const { agent, interaction } = await atConsent();
    const forged = await switchUser(agent, interaction, { csrf_token: "forged" });
    expect(forged.headers.get("location")).toMatch(/^\/consent\?.*error=form_expired/);
    expect(agent.cookies.has(SESSION_COOKIE)).toBe(true);

    const unknown = await switchUser(agent, "not-a-prompt");
    expect(unknown.status).toBe(400);
    expect(agent.cookies.has(SESSION_COOKIE)).toBe(true);
    expect((await switchUser(agent, interaction)).status).toBe(303);
  });
});
