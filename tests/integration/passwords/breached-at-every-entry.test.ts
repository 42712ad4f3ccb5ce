/**
 * PASSWORD_BREACH_CHECK=hibp at every place a password is chosen, against a real range API on the loopback (reached
 * under OUTBOUND_ALLOW, as an operator's mirror would be): the profile's change, the reset link, the invitation and
 * `users password` each refuse a breached password with their own reason, store nothing, and take another one; while
 * the range API is down, the estimate alone decides.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { passwordResetComposer } from "@/lib/account/password-reset";
import { parseAddressRanges } from "@/lib/config/address-ranges";
import { hashPassword } from "@/lib/crypto/password";
import { INVITATION_FORM_COOKIE } from "@/lib/http/flash-cookies";
import { LINK_PAGES } from "@/lib/http/link-token-cookies";
import { unsealedCookieValue } from "@/lib/http/sealed-cookie";
import { getServiceContext } from "@/lib/service-context";
import { runAdmin } from "../../helpers/admin-cli";
import { SECRET_KEY, signedInAgent, UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { RangeServer } from "../../helpers/range-server";
import { testProvider } from "../../helpers/test-database";

const OLD = "the old passphrase 1";
const BREACHED = "lesebrille kompass morgentau";
const UNLISTED = "quitte ofenrohr kranich nebel";
const server = new RangeServer({ [BREACHED]: 1234 });

// The route handlers read their configuration from the environment at their first request.
beforeAll(async () => {
  await server.start();
  process.env.PASSWORD_BREACH_CHECK = "hibp";
  process.env.PASSWORD_BREACH_URL = server.url;
  process.env.OUTBOUND_ALLOW = "127.0.0.0/8";
});
afterAll(() => server.close());
const service = useOAuthService();
const db = () => service().database.db;

let counter = 0;
async function newUser(): Promise<string> {
  const email = `breach-${++counter}@example.com`;
  await db().user.create({
    data: {
      email,
      givenName: "Bea",
      familyName: "Breach",
      companyId: "demo-company-optician",
      passwordHash: await hashPassword(OLD),
    },
  });
  return email;
}

const signsInWith = async (email: string, password: string) =>
  (await new UserAgent().login("/", email, password)).headers.get("location") === "/";

const changePassword = (agent: UserAgent, next: string) =>
  agent.post("account", "/interaction/account", {
    action: "change-password",
    current_password: OLD,
    new_password: next,
  });

/** A reset link for `email`, as the outbox worker makes it, and a browser holding it. */
async function resetBrowser(email: string): Promise<UserAgent> {
  const mail = await passwordResetComposer(getServiceContext())({ recipient: email, language: "en", request: {} });
  const token = new URL(mail!.text.match(/https?:\/\/\S+\/password\/reset\?\S+/)![0]).searchParams.get("token")!;
  const agent = new UserAgent();
  agent.cookies.set(LINK_PAGES["/password/reset"], token);
  return agent;
}

async function invitationToken(email: string): Promise<string> {
  const invited = await runAdmin(db(), ["users", "invite", email, "--company", "demo-company-optician"]);
  return new URL((JSON.parse(invited.stdout) as { invitation_url: string }).invitation_url).searchParams.get("token")!;
}

async function join(token: string, password: string) {
  const agent = new UserAgent();
  const form = { token, given_name: "Ina", family_name: "Vited", password };
  const response = await agent.post("invitation", "/interaction/invitation", form);
  const refused = unsealedCookieValue<{ problem: string; field?: string }>(
    INVITATION_FORM_COOKIE,
    agent.cookies.get(INVITATION_FORM_COOKIE),
    SECRET_KEY,
  );
  return { response, refused };
}

describe(`breached passwords at every entry point, on ${testProvider()}`, () => {
  it("refuses one on the profile page, keeping the old password, and takes another", async () => {
    const email = await newUser();
    const agent = await signedInAgent(email, OLD);
    expect((await changePassword(agent, BREACHED)).headers.get("location")).toBe(
      "/portal/profile?form=password&error=password_breached",
    );
    expect(await signsInWith(email, OLD)).toBe(true);
    expect((await changePassword(agent, UNLISTED)).headers.get("location")).toBe("/portal/profile?done=password");
    expect(await signsInWith(email, UNLISTED)).toBe(true);
  });

  it("refuses one through a reset link, which stays open for another", async () => {
    const email = await newUser();
    const agent = await resetBrowser(email);
    const refused = await agent.post("reset", "/interaction/password/reset", { password: BREACHED });
    expect(refused.headers.get("location")).toBe("/password/reset?error=password_breached");
    expect(await signsInWith(email, OLD)).toBe(true);
    const done = await agent.post("reset", "/interaction/password/reset", { password: UNLISTED });
    expect(done.headers.get("location")).toBe("/portal/applications");
    expect(await signsInWith(email, UNLISTED)).toBe(true);
  });

  it("refuses one on the invitation's page, making no user, and takes another", async () => {
    const email = `invited-${++counter}@example.com`;
    const token = await invitationToken(email);
    const { refused } = await join(token, BREACHED);
    expect(refused).toMatchObject({ problem: "password_breached", field: "password" });
    expect(await db().user.count({ where: { email } })).toBe(0);
    expect((await join(token, UNLISTED)).response.headers.get("location")).toBe("/portal/applications");
    expect(await signsInWith(email, UNLISTED)).toBe(true);
  });

  it("refuses one on the command line, saying why", async () => {
    const email = await newUser();
    const cli = (password: string) =>
      runAdmin(db(), ["users", "password", email], {
        input: `${password}\n`,
        passwordBreach: { url: server.url },
        outboundAllow: parseAddressRanges("127.0.0.0/8"),
      });
    const refused = await cli(BREACHED);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/appears in data breaches/);
    expect(await signsInWith(email, OLD)).toBe(true);
    expect(JSON.parse((await cli(UNLISTED)).stdout)).toMatchObject({ email, status: "password_set" });
  });

  it("lets the estimate alone decide while the range API is down", async () => {
    const email = await newUser();
    const agent = await signedInAgent(email, OLD);
    server.mode = "unavailable";
    try {
      expect((await changePassword(agent, BREACHED)).headers.get("location")).toBe("/portal/profile?done=password");
    } finally {
      server.mode = "answer";
    }
    expect(await signsInWith(email, BREACHED)).toBe(true);
  });
});
