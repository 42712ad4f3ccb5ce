/**
 * The languages a new password is checked in, through the real forms: the page's (the invitation's page in French)
 * and the person's own (a Polish-speaking user on an English page, a French invitation), besides English.
 */
import { describe, expect, it } from "vitest";
import { hashPassword } from "@/lib/crypto/password";
import { INVITATION_FORM_COOKIE } from "@/lib/http/flash-cookies";
import { unsealedCookieValue } from "@/lib/http/sealed-cookie";
import { LOCALE_COOKIE } from "@/lib/i18n/locales";
import { runAdmin } from "../../helpers/admin-cli";
import { SECRET_KEY, signedInAgent, UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const db = () => service().database.db;
const OLD = "the old passphrase 1";
/** Words with a year that English dictionaries take, and French and Polish ones do not. */
const FRENCH = "tournesol2024";
const POLISH = "ziemniaki2023";

let counter = 0;
async function invitationToken(...options: string[]): Promise<{ email: string; token: string }> {
  const email = `languages-${++counter}@example.com`;
  const invited = await runAdmin(db(), ["users", "invite", email, "--company", "demo-company-optician", ...options]);
  const url = new URL((JSON.parse(invited.stdout) as { invitation_url: string }).invitation_url);
  return { email, token: url.searchParams.get("token")! };
}

async function joinIn(language: string, token: string, password: string): Promise<string | undefined> {
  const agent = new UserAgent(language);
  await agent.post("invitation", "/interaction/invitation", {
    token,
    given_name: "Lou",
    family_name: "Lang",
    password,
  });
  const refused = unsealedCookieValue<{ problem: string }>(
    INVITATION_FORM_COOKIE,
    agent.cookies.get(INVITATION_FORM_COOKIE),
    SECRET_KEY,
  );
  return refused?.problem;
}

describe(`the languages of a new password's check, on ${testProvider()}`, () => {
  it("reads the page's language: the invitation's page in French refuses a French word that English takes", async () => {
    const french = await invitationToken();
    expect(await joinIn("fr", french.token, FRENCH)).toBe("password_too_guessable");
    const english = await invitationToken();
    expect(await joinIn("en", english.token, FRENCH)).toBeUndefined();
    expect(await db().user.count({ where: { email: english.email } })).toBe(1);
  });

  it("reads the invitation's language on a page in another", async () => {
    const { token } = await invitationToken("--language", "fr");
    expect(await joinIn("en", token, FRENCH)).toBe("password_too_guessable");
  });

  it("reads the user's preferred language on a page in another", async () => {
    const email = `languages-${++counter}@example.com`;
    const data = { email, givenName: "Pola", familyName: "Nowak", companyId: "demo-company-optician" };
    await db().user.create({ data: { ...data, preferredLanguage: "pl", passwordHash: await hashPassword(OLD) } });
    const agent = await signedInAgent(email, OLD);
    // The profile page is in the user's language unless this browser chose another: English here.
    agent.cookies.set(LOCALE_COOKIE, "en");
    const change = (next: string) =>
      agent.post("account", "/interaction/account", {
        action: "change-password",
        current_password: OLD,
        new_password: next,
      });
    expect((await change(POLISH)).headers.get("location")).toBe(
      "/portal/profile?form=password&error=password_too_guessable",
    );
    expect((await change(FRENCH)).headers.get("location")).toBe("/portal/profile?done=password");
  });
});
