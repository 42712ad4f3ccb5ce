/**
 * A vendor's application waiting for approval signs in the vendor's own people only, limited to openid profile
 * email and marked `sandbox`; anyone else is refused, no platform scope or offline access is reached, the operator can
 * turn the sandbox off per vendor, and approval lifts the limits.
 */
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { registerPartnerApplication, reviewApplication } from "@/lib/admin/partner-applications";
import { consentPrompt } from "@/lib/rights/consent";
import { actorOfSessionCookie } from "@/lib/rights/actor";
import { getServiceContext } from "@/lib/service-context";
import { SESSION_COOKIE } from "@/lib/session/session-cookie";
import {
  call,
  callbackParams,
  formRequest,
  interactionOf,
  pkcePair,
  returnUrlOf,
  signedInAgent,
  UserAgent,
  useOAuthService,
} from "../../helpers/oauth-service";
import { runAdmin } from "../../helpers/admin-cli";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const VENDOR = "demo-company-vendor";
const REDIRECT = "http://127.0.0.1/callback";
const ASKED = "openid profile email offline_access platform.catalogs.read";
let counter = 0;

/** A public native application of the demo vendor, pending, asking for more than a sandbox allows. */
async function pendingApplication(): Promise<string> {
  const context = getServiceContext();
  const partner = (await context.stores.partners.findPartner(VENDOR))!;
  const registered = await registerPartnerApplication(context, partner, {
    client_id: `praxis-sandbox-${++counter}`,
    client_name: "Praxissoft Sandbox",
    application_type: "native",
    token_endpoint_auth_method: "none",
    grant_types: ["authorization_code", "refresh_token"],
    offline_access: true,
    redirect_uris: [REDIRECT],
    post_logout_redirect_uris: ["http://127.0.0.1/signed-out"],
    scope: ASKED,
  });
  return registered.clientId;
}

function authorizeParams(clientId: string, challenge: string, scope = ASKED) {
  return {
    client_id: clientId,
    redirect_uri: REDIRECT,
    response_type: "code",
    scope,
    state: "state-1",
    nonce: "nonce-1",
    code_challenge: challenge,
    code_challenge_method: "S256",
  };
}

/** Signs the given person in at the authorization endpoint; the answer after the sign-in. */
async function signIn(agent: UserAgent, params: Record<string, string>, email: string, password: string) {
  const first = await agent.authorize(params);
  expect(first.headers.get("location")).toMatch(/^\/login/);
  const login = await agent.login(returnUrlOf(first), email, password);
  return agent.authorizeUrl(login.headers.get("location")!);
}

const redeem = (clientId: string, code: string, verifier: string) =>
  call(
    "token",
    formRequest("/connect/token", {
      grant_type: "authorization_code",
      client_id: clientId,
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    }),
  );

describe(`the sandbox of a pending application on ${testProvider()}`, () => {
  it("signs in the vendor's developer, marked sandbox, with openid profile email only", async () => {
    const clientId = await pendingApplication();
    const { verifier, challenge } = pkcePair();
    const agent = new UserAgent();
    const atConsent = await signIn(
      agent,
      authorizeParams(clientId, challenge),
      "developer@demo.test",
      "Developer#2026",
    );
    expect(atConsent.headers.get("location")).toMatch(/^\/consent/);
    const interaction = interactionOf(atConsent);
    const actor = await actorOfSessionCookie(getServiceContext(), agent.cookies.get(SESSION_COOKIE));
    const prompt = await consentPrompt(actor, interaction, "en");
    expect(prompt).toMatchObject({ sandbox: true });
    expect(prompt!.scopes.map((scope) => scope.name)).toEqual(["openid", "profile", "email"]);

    const allowed = await agent.consent(interaction, "allow", ["openid", "profile", "email"]);
    const code = callbackParams(allowed).get("code")!;
    const answer = await redeem(clientId, code, verifier);
    expect(answer.status).toBe(200);
    const body = await answer.json();
    expect(body.scope).toBe("openid profile email");
    expect(body.refresh_token).toBeUndefined();
    expect(decodeJwt(body.id_token)).toMatchObject({ sandbox: true, aud: clientId });
    const access = decodeJwt(body.access_token);
    expect(String(access.scope).split(" ")).not.toContain("platform.catalogs.read");
    const catalogs = await fetchPlatformApi(body.access_token);
    expect(catalogs).toBe(403);
  });

  it("refuses anyone outside the vendor's company before any consent, on OptiGate's own error page", async () => {
    const clientId = await pendingApplication();
    const { challenge } = pkcePair();
    const agent = new UserAgent();
    // The redirect URI is the vendor's, not reviewed yet: nobody outside the vendor is sent there, not even refused.
    const answer = await signIn(agent, authorizeParams(clientId, challenge), "optician@demo.test", "Optician#2026");
    expect(answer.status).toBe(400);
    expect(answer.headers.get("location")).toBeNull();
    expect(await answer.text()).toMatch(/waits for approval/);
    const operator = await signedInAgent("admin@demo.test", "Admin#2026");
    expect((await operator.authorize(authorizeParams(clientId, challenge))).status).toBe(400);
    // Nor is an anonymous browser, whatever error its request earns.
    const silent = await new UserAgent().authorize({ ...authorizeParams(clientId, challenge), prompt: "none" });
    expect([silent.status, silent.headers.get("location")]).toEqual([400, null]);
  });

  it("sends the vendor's own developer to the redirect URI with an error, and signs out nowhere unreviewed", async () => {
    const clientId = await pendingApplication();
    const { verifier, challenge } = pkcePair();
    const developer = await signedInAgent("developer@demo.test", "Developer#2026");
    const silent = await developer.authorize({ ...authorizeParams(clientId, challenge), prompt: "none" });
    expect(callbackParams(silent).get("error")).toBe("consent_required");
    const atConsent = await developer.authorize(authorizeParams(clientId, challenge));
    const allowed = await developer.consent(interactionOf(atConsent), "allow", ["openid"]);
    const body = await (await redeem(clientId, callbackParams(allowed).get("code")!, verifier)).json();
    const query = new URLSearchParams({
      id_token_hint: body.id_token,
      post_logout_redirect_uri: "http://127.0.0.1/signed-out",
      state: "after",
    });
    const signedOut = await new UserAgent().get("endsession", `/connect/endsession?${query}`);
    expect(signedOut.headers.get("location") ?? "").not.toMatch(/^http:\/\/127\.0\.0\.1/);
  });

  it("asks only for what the sandbox allows: a request for platform scopes alone is refused", async () => {
    const clientId = await pendingApplication();
    const { challenge } = pkcePair();
    const developer = await signedInAgent("developer@demo.test", "Developer#2026");
    const answer = await developer.authorize(authorizeParams(clientId, challenge, "platform.catalogs.read"));
    expect(callbackParams(answer).get("error")).toBe("invalid_scope");
  });

  it("is gone while the operator turns the vendor's sandbox off, and back when turned on", async () => {
    const clientId = await pendingApplication();
    const { challenge } = pkcePair();
    const db = service().database.db;
    const off = await runAdmin(db, ["partners", "sandbox", VENDOR, "off"]);
    expect(off.code, off.stderr).toBe(0);
    expect(JSON.parse(off.stdout)).toEqual({ company: VENDOR, partner_sandbox: false });
    const refused = await new UserAgent().authorize(authorizeParams(clientId, challenge));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/not registered/);
    expect((await runAdmin(db, ["partners", "sandbox", VENDOR, "maybe"])).code).not.toBe(0);
    expect((await runAdmin(db, ["partners", "sandbox", VENDOR, "on"])).code).toBe(0);
    const again = await new UserAgent().authorize(authorizeParams(clientId, challenge));
    expect(again.headers.get("location")).toMatch(/^\/login/);
  });

  it("lifts the limits once the operator approves the application", async () => {
    const clientId = await pendingApplication();
    const context = getServiceContext();
    await reviewApplication(context, clientId, { approve: true });
    const { verifier, challenge } = pkcePair();
    const agent = new UserAgent();
    const atConsent = await signIn(agent, authorizeParams(clientId, challenge), "optician@demo.test", "Optician#2026");
    const allowed = await agent.consent(interactionOf(atConsent), "allow", ASKED.split(" "));
    const body = await (await redeem(clientId, callbackParams(allowed).get("code")!, verifier)).json();
    expect(body.refresh_token).toEqual(expect.any(String));
    expect(decodeJwt(body.id_token).sandbox).toBeUndefined();
    expect(String(decodeJwt(body.access_token).scope).split(" ")).toContain("platform.catalogs.read");
  });
});

/** The platform API's answer status to a catalog listing with the access token. */
async function fetchPlatformApi(accessToken: string): Promise<number> {
  const { ROUTES } = await import("@/lib/server/routes");
  const request = new Request("http://localhost:3000/v2/catalogs", {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  return (await ROUTES["/v2/[...path]"].GET(request)).status;
}
