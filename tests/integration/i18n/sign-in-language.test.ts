/**
 * ui_locales lasts for the sign-in it came with: the pages keep it in the sign-in language cookie
 * (tests/unit/pages/page-proxy.test.ts), the sign-in's forms answer in it, and the authorization request's answer
 * or the person's own choice ends it. The pages themselves in a browser: tests/e2e/sign-in-language.spec.ts.
 */
import { describe, expect, it } from "vitest";
import { handleLanguageSwitch } from "@/lib/i18n/language-switch";
import { SIGN_IN_LOCALE_COOKIE } from "@/lib/i18n/sign-in-language";
import {
  callbackParams,
  demoWeb,
  interactionOf,
  ISSUER,
  returnUrlOf,
  UserAgent,
  useOAuthService,
} from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

useOAuthService();
const request = {
  client_id: demoWeb.client_id,
  redirect_uri: demoWeb.redirect_uri,
  response_type: "code",
  scope: "openid profile",
  state: "s",
  prompt: "consent",
};
const ENDED = `${SIGN_IN_LOCALE_COOKIE}=; Path=/; SameSite=Lax; HttpOnly; Max-Age=0`;

/** An agent signed in to `request` and on its consent page, which kept the sign-in's language as the proxy does. */
async function onConsentPage(uiLocales: string) {
  const agent = new UserAgent("en-GB");
  const start = await agent.authorize({ ...request, ui_locales: uiLocales });
  const login = await agent.login(returnUrlOf(start), "optician@demo.test", "Optician#2026");
  const consent = await agent.authorizeUrl(login.headers.get("location")!);
  expect(new URL(consent.headers.get("location")!, ISSUER).searchParams.get("ui_locales")).toBe(uiLocales);
  agent.cookies.set(SIGN_IN_LOCALE_COOKIE, "pl");
  return { agent, interaction: interactionOf(consent) };
}

describe(`the sign-in language on ${testProvider()}`, () => {
  it("answers the sign-in's forms in it: an expired consent's page is Polish in an English browser", async () => {
    const { agent } = await onConsentPage("pl");
    const page = await agent.consent("no-such-prompt", "allow", ["openid"]);
    expect(page.status).toBe(400);
    expect(await page.text()).toMatch(/<html lang="pl"/);
    expect(agent.cookies.get(SIGN_IN_LOCALE_COOKIE)).toBe("pl");
  });

  it("ends when the consent answers the application, allowed or denied", async () => {
    for (const decision of ["allow", "deny"] as const) {
      const { agent, interaction } = await onConsentPage("pl");
      const answer = await agent.consent(interaction, decision, ["openid"]);
      expect(answer.status).toBe(303);
      expect(callbackParams(answer).get(decision === "allow" ? "code" : "error")).toBeTruthy();
      expect(answer.headers.getSetCookie()).toContain(ENDED);
      expect(agent.cookies.has(SIGN_IN_LOCALE_COOKIE)).toBe(false);
    }
  });

  it("ends with any answer of the authorization endpoint: a new request carries its own ui_locales or none", async () => {
    const agent = new UserAgent("en-GB");
    agent.cookies.set(SIGN_IN_LOCALE_COOKIE, "pl");
    const start = await agent.authorize(request);
    expect(start.headers.get("location")).toMatch(/^\/login\?returnUrl=/);
    expect(start.headers.getSetCookie()).toEqual([ENDED]);
    // Without one kept, the endpoint sets nothing: the sign-in's pages take the language from their address.
    expect((await agent.authorize({ ...request, ui_locales: "pl" })).headers.getSetCookie()).toEqual([]);
  });

  it("ends when the person chooses a language with the switch, which then holds", () => {
    const headers = { cookie: `${SIGN_IN_LOCALE_COOKIE}=pl` };
    const chosen = handleLanguageSwitch(new Request(`${ISSUER}/language?locale=de&returnTo=%2Flogin`, { headers }), {
      config: { publicUrl: ISSUER },
    });
    expect(chosen.headers.getSetCookie()).toEqual(["optigate_locale=de; Path=/; SameSite=Lax", ENDED]);
  });
});
