/**
 * "Try sign-in" on the partner portal: the code flow with PKCE against the application's own registration through
 * OptiGate's redirect URI /portal/developer/callback, redeemed by OptiGate itself for the developer who started it;
 * the application can neither redeem such a code nor use that redirect URI, and nobody else gets the tokens.
 */
import { describe, expect, it } from "vitest";
import { registerPartnerApplication, reviewApplication } from "@/lib/admin/partner-applications";
import { hashPassword } from "@/lib/crypto/password";
import { unsealedCookieValue } from "@/lib/http/sealed-cookie";
import type { DeveloperTrialResult } from "@/lib/rights/developer-trial";
import { getServiceContext } from "@/lib/service-context";
import {
  call,
  formRequest,
  interactionOf,
  ISSUER,
  pkcePair,
  SECRET_KEY,
  signedInAgent,
  UserAgent,
  useOAuthService,
} from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const CALLBACK = `${ISSUER}/portal/developer/callback`;
let counter = 0;

async function pendingWebApp(): Promise<{ clientId: string; secret: string }> {
  const context = getServiceContext();
  const partner = (await context.stores.partners.findPartner("demo-company-vendor"))!;
  const registered = await registerPartnerApplication(context, partner, {
    client_id: `praxis-trial-${++counter}`,
    client_name: "Praxissoft Trial",
    redirect_uris: ["https://trial.praxissoft.example/callback"],
    scope: "openid profile email platform.catalogs.read",
  });
  return { clientId: registered.clientId, secret: registered.secret!.secret };
}

/** Starts a try as the agent and follows it to the consent page; the consent's interaction. */
async function startTrial(agent: UserAgent, clientId: string): Promise<{ location: URL; interaction: string }> {
  const started = await agent.post("developer-trial", "/interaction/developer/try", { client_id: clientId });
  expect(started.status).toBe(303);
  const location = new URL(started.headers.get("location")!);
  expect(location.pathname).toBe("/connect/authorize");
  expect(location.searchParams.get("redirect_uri")).toBe(CALLBACK);
  expect(location.searchParams.get("code_challenge_method")).toBe("S256");
  const atConsent = await agent.authorizeUrl(location.href);
  expect(atConsent.headers.get("location")).toMatch(/^\/consent/);
  return { location, interaction: interactionOf(atConsent) };
}

const pathOf = (response: Response) => {
  const url = new URL(response.headers.get("location")!, ISSUER);
  return `${url.pathname}${url.search}`;
};

const shownResult = (agent: UserAgent) =>
  unsealedCookieValue<DeveloperTrialResult>(
    "optigate_developer_trial_result",
    agent.cookies.get("optigate_developer_trial_result"),
    SECRET_KEY,
  );

describe(`"Try sign-in" on the partner portal on ${testProvider()}`, () => {
  it("shows the developer the decoded tokens and the userinfo answer of a sandbox sign-in", async () => {
    const { clientId } = await pendingWebApp();
    const developer = await signedInAgent("developer@demo.test", "Developer#2026");
    const { interaction } = await startTrial(developer, clientId);
    const allowed = await developer.consent(interaction, "allow", ["openid", "profile", "email"]);
    expect(allowed.headers.get("location")).toMatch(new RegExp(`^${CALLBACK}\\?`));
    const finished = await developer.get("developer-callback", pathOf(allowed));
    expect(finished.status).toBe(303);
    expect(finished.headers.get("location")).toBe(`/portal/developer/${clientId}#try`);
    expect(finished.headers.get("referrer-policy")).toBe("no-referrer");
    const result = shownResult(developer);
    expect(result).toMatchObject({ ok: true, clientId });
    if (!result?.ok) throw new Error("no result");
    expect(result.idToken!.claims).toMatchObject({ sandbox: true, aud: clientId, iss: ISSUER });
    expect(result.idToken!.header).toMatchObject({ alg: expect.any(String), kid: expect.any(String) });
    expect(result.accessToken.claims).toMatchObject({ client_id: clientId, scope: "openid profile email" });
    expect(result.userinfo).toMatchObject({ email: "developer@demo.test", sub: result.idToken!.claims.sub });
    // The trial's own cookie is over: the callback cannot be replayed.
    expect(developer.cookies.has("optigate_developer_trial")).toBe(false);
    expect((await developer.get("developer-callback", pathOf(allowed))).status).toBe(403);
  });

  it("never lets the application redeem a code issued for OptiGate's try-it redirect URI", async () => {
    const { clientId, secret } = await pendingWebApp();
    const developer = await signedInAgent("developer@demo.test", "Developer#2026");
    const { location, interaction } = await startTrial(developer, clientId);
    const allowed = await developer.consent(interaction, "allow", ["openid", "profile", "email"]);
    const code = new URL(allowed.headers.get("location")!).searchParams.get("code")!;
    const answer = await call(
      "token",
      formRequest(
        "/connect/token",
        { grant_type: "authorization_code", code, redirect_uri: CALLBACK, code_verifier: pkcePair().verifier },
        { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString("base64")}` },
      ),
    );
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: "invalid_grant" });
    // The application's own request with OptiGate's redirect URI is refused unless it is the try's (PKCE, query).
    const implicit = new URL(location);
    implicit.searchParams.delete("code_challenge");
    implicit.searchParams.delete("code_challenge_method");
    const withoutPkce = await developer.authorizeUrl(implicit.href);
    expect(new URL(withoutPkce.headers.get("location")!).searchParams.get("error")).toBe("invalid_request");
  });

  it("accepts OptiGate's redirect URI for vendors' applications only", async () => {
    const { challenge } = pkcePair();
    const operatorClient = await new UserAgent().authorize({
      client_id: "demo-web",
      redirect_uri: CALLBACK,
      response_type: "code",
      scope: "openid",
      state: "s",
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    expect(operatorClient.status).toBe(400);
    expect(await operatorClient.text()).toMatch(/redirect_uri is not registered/);
  });

  it("refuses people of other companies: no try for them, and no tokens from another's try", async () => {
    const { clientId } = await pendingWebApp();
    const optician = await signedInAgent("optician@demo.test", "Optician#2026");
    expect((await optician.post("developer-trial", "/interaction/developer/try", { client_id: clientId })).status).toBe(
      403,
    );
    // The developer's try of an approved application, opened in the optician's browser, ends in access_denied and
    // shows the optician nothing.
    await reviewApplication(getServiceContext(), clientId, { approve: true });
    const developer = await signedInAgent("developer@demo.test", "Developer#2026");
    const started = await developer.post("developer-trial", "/interaction/developer/try", { client_id: clientId });
    const denied = await optician.authorizeUrl(started.headers.get("location")!);
    const back = new URL(denied.headers.get("location")!);
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect((await optician.get("developer-callback", `${back.pathname}${back.search}`)).status).toBe(403);
    expect(shownResult(optician)).toBeUndefined();
  });

  it("shows nothing of a colleague who signed in with the developer's link", async () => {
    const { clientId } = await pendingWebApp();
    await service().database.db.user.create({
      data: {
        email: "colleague@trial.test",
        givenName: "Carla",
        familyName: "Colleague",
        companyId: "demo-company-vendor",
        role: "user",
        passwordHash: await hashPassword("Colleague#2026"),
      },
    });
    const developer = await signedInAgent("developer@demo.test", "Developer#2026");
    const started = await developer.post("developer-trial", "/interaction/developer/try", { client_id: clientId });
    const colleague = await signedInAgent("colleague@trial.test", "Colleague#2026");
    const atConsent = await colleague.authorizeUrl(started.headers.get("location")!);
    const allowed = await colleague.consent(interactionOf(atConsent), "allow", ["openid", "profile", "email"]);
    expect((await colleague.get("developer-callback", pathOf(allowed))).status).toBe(403);
    // The same callback URL in the developer's browser: the code is redeemed, the colleague's identity not shown.
    expect((await developer.get("developer-callback", pathOf(allowed))).status).toBe(303);
    const result = shownResult(developer);
    expect(result).toMatchObject({ ok: false, error: "other_person" });
    expect(JSON.stringify(result)).not.toContain("colleague@trial.test");
  });

  it("says why an application cannot be tried: another company's, or unknown", async () => {
    const developer = await signedInAgent("developer@demo.test", "Developer#2026");
    const unknown = await developer.post("developer-trial", "/interaction/developer/try", { client_id: "demo-web" });
    expect(unknown.headers.get("location")).toBe("/portal/developer/demo-web?trial=not_found#try");
    const expired = await developer.post("developer-trial", "/interaction/developer/try", {
      client_id: "demo-web",
      csrf_token: "forged",
    });
    expect(expired.headers.get("location")).toBe("/portal/developer/demo-web?trial=form_expired#try");
  });
});
