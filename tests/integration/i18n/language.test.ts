import { describe, expect, it } from "vitest";
import { handleLanguageSwitch } from "@/lib/i18n/language-switch";
import { ISSUER, UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const switchTo = (query: string) =>
  handleLanguageSwitch(new Request(`${ISSUER}/language?${query}`), { config: { publicUrl: ISSUER } });

describe("language switch", () => {
  it("keeps the choice for the browser session and returns to the page it came from", () => {
    const response = switchTo("locale=de&returnTo=%2Flogin%3FreturnUrl%3D%252F");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/login?returnUrl=%2F");
    const cookie = response.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^optigate_locale=de; Path=\/; SameSite=Lax$/); // no Max-Age: ends with the browser session
  });

  it("ignores unknown languages and never leaves OptiGate", () => {
    expect(switchTo("locale=sv&returnTo=%2F").headers.get("set-cookie")).toBeNull();
    expect(switchTo("locale=fr-CH&returnTo=%2F").headers.get("set-cookie")).toBeNull();
    expect(switchTo("locale=de&returnTo=https%3A%2F%2Fevil.example%2F").headers.get("location")).toBe("/");
    expect(switchTo("locale=de&returnTo=%2F%2Fevil.example").headers.get("location")).toBe("/");
  });

  // Paths whose dot segments collapse into //evil.com (the security review's open redirect).
  it.each(["/.//evil.com", "/..//evil.com", "/%2e//evil.com", "/./\\evil.com"])("never returns to %s", (returnTo) => {
    const location = switchTo(`locale=de&returnTo=${encodeURIComponent(returnTo)}`).headers.get("location");
    expect(location).toBe("/");
  });

  it("goes through the route handler the same way", async () => {
    const { GET } = await import("@/app/language/route");
    const response = await GET(new Request(`${ISSUER}/language?locale=de&returnTo=/.//evil.com`));
    expect(response.headers.get("location")).toBe("/");
  });
});

describe(`preferred language on ${testProvider()}`, () => {
  it("is stored from the profile form, shown at once, and cleared again", async () => {
    const agent = new UserAgent();
    const start = await agent.authorize({
      client_id: "demo-web",
      redirect_uri: "http://localhost:4000/callback",
      response_type: "code",
      scope: "openid",
      state: "s",
    });
    await agent.login(
      new URL(start.headers.get("location")!, ISSUER).searchParams.get("returnUrl")!,
      "supplier@demo.test",
      "Supplier#2026",
    );
    const saved = await agent.post("portal", "/interaction/portal", {
      action: "set-language",
      preferred_language: "de",
    });
    expect(saved.headers.get("location")).toBe("/portal/profile?saved=1");
    expect(agent.cookies.get("optigate_locale")).toBe("de");
    const user = () => service().database.db.user.findUniqueOrThrow({ where: { email: "supplier@demo.test" } });
    expect((await user()).preferredLanguage).toBe("de");
    await agent.post("portal", "/interaction/portal", { action: "set-language", preferred_language: "" });
    expect((await user()).preferredLanguage).toBeNull();
    expect(agent.cookies.has("optigate_locale")).toBe(false);
    const refused = await agent.post("portal", "/interaction/portal", {
      action: "set-language",
      preferred_language: "xx",
    });
    expect(refused.headers.get("location")).toBe("/portal/profile?error=unknown_action");
  });
});
