import { prismaStores } from "@/lib/store/stores";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseClientMetadata } from "@/lib/admin/client-metadata";
import { registerClient, removeClient } from "@/lib/admin/client-registry";
import { forgetClient } from "@/lib/store/client-store";
import { hashPassword } from "@/lib/crypto/password";
import {
  authorizeWithConsent,
  basic,
  call,
  formRequest,
  ISSUER,
  UserAgent,
  useOAuthService,
} from "../../helpers/oauth-service";
import { startLogoutReceiver, type LogoutReceiver } from "../../helpers/logout-receiver";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const rp = { client_id: "rp-logout", redirect_uri: "https://rp.example/cb", secret: "rp-logout-secret" };
let receiver: LogoutReceiver;
let received: string[];

beforeAll(async () => {
  receiver = await startLogoutReceiver();
  received = receiver.received;
  const registration = parseClientMetadata(
    {
      client_id: rp.client_id,
      redirect_uris: [rp.redirect_uri],
      frontchannel_logout_uri: "https://rp.example/frontchannel?from=optigate",
      backchannel_logout_uri: receiver.uri,
      post_logout_redirect_uris: ["https://rp.example/"],
    },
    "platform",
  );
  await registerClient(prismaStores(service().database.db), registration, { value: rp.secret });
});
afterAll(() => receiver.close());

async function signedInToRp(agent = new UserAgent()) {
  const { code } = await authorizeWithConsent(agent, {
    client_id: rp.client_id,
    redirect_uri: rp.redirect_uri,
    response_type: "code",
    scope: "openid",
    state: "s",
  });
  const tokens = await (
    await call(
      "token",
      formRequest(
        "/connect/token",
        { grant_type: "authorization_code", code, redirect_uri: rp.redirect_uri },
        { Authorization: basic(rp.client_id, rp.secret) },
      ),
    )
  ).json();
  return { agent, idToken: tokens.id_token as string };
}

async function keys() {
  const { GET } = await import("@/app/.well-known/openid-configuration/jwks/route");
  return createLocalJWKSet(await (await GET(new Request(`${ISSUER}/jwks`))).json());
}

describe(`combined sign-out on ${testProvider()}`, () => {
  it("advertises front- and back-channel logout", async () => {
    const { GET } = await import("@/app/.well-known/openid-configuration/route");
    const metadata = await (await GET(new Request(`${ISSUER}/.well-known/openid-configuration`))).json();
    expect(metadata).toMatchObject({
      frontchannel_logout_supported: true,
      frontchannel_logout_session_supported: true,
      backchannel_logout_supported: true,
      backchannel_logout_session_supported: true,
    });
  });

  it("sends a back-channel logout token and shows the front-channel page before redirecting", async () => {
    received.length = 0;
    const { agent, idToken } = await signedInToRp();
    const session = await service().database.db.loginSession.findFirstOrThrow({ orderBy: { createdAt: "desc" } });
    const response = await agent.get(
      "endsession",
      `/connect/endsession?${new URLSearchParams({ id_token_hint: idToken, post_logout_redirect_uri: "https://rp.example/", state: "st" })}`,
    );
    expect(response.status).toBe(200);
    const html = await response.text();
    const frame = new URL(/<iframe src="([^"]+)"/.exec(html)![1].replace(/&amp;/g, "&"));
    expect(frame.origin + frame.pathname).toBe("https://rp.example/frontchannel");
    expect(Object.fromEntries(frame.searchParams)).toEqual({ from: "optigate", iss: ISSUER, sid: session.id });
    expect(html).toContain('location.replace("https://rp.example/?state=st")');
    expect(response.headers.getSetCookie().some((c) => c.startsWith("optigate_session=;"))).toBe(true);

    expect(received).toHaveLength(1);
    expect(decodeProtectedHeader(received[0]).typ).toBe("logout+jwt");
    const { payload } = await jwtVerify(received[0], await keys(), {
      issuer: ISSUER,
      audience: rp.client_id,
      typ: "logout+jwt",
    });
    expect(payload).toMatchObject({
      sid: session.id,
      sub: session.userId,
      events: { "http://schemas.openid.net/event/backchannel-logout": {} },
    });
    expect(payload.nonce).toBeUndefined();
  });

  it("tells the client about every session ended by 'sign out everywhere'", async () => {
    received.length = 0;
    const first = await signedInToRp();
    await signedInToRp();
    const response = await first.agent.post("portal", "/interaction/portal", { action: "sign-out-everywhere" });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('location.replace("/?signedOut=everywhere")');
    expect(received.length).toBeGreaterThanOrEqual(2);
  });

  it("tells the client about sessions a password change or the security page ends", async () => {
    const db = service().database.db;
    const email = "logout-owner@example.com";
    const password = "the old passphrase 2";
    await db.user.create({
      data: {
        email,
        givenName: "L",
        familyName: "O",
        companyId: "demo-company-optician",
        passwordHash: await hashPassword(password),
      },
    });
    const sessionOf = async (agent: UserAgent) => {
      await agent.login("/", email, password);
      await signedInToRp(agent);
      return (await db.loginSession.findFirstOrThrow({ where: { user: { email } }, orderBy: { createdAt: "desc" } }))
        .id;
    };
    const sidsReceived = async () =>
      Promise.all(
        received.map(async (token) => (await jwtVerify(token, await keys(), { issuer: ISSUER })).payload.sid),
      );
    const [changer, ended, other] = [new UserAgent(), new UserAgent(), new UserAgent()];
    await sessionOf(changer);
    const endedSid = await sessionOf(ended);
    received.length = 0;
    const byPage = await changer.post("account", "/interaction/account", {
      action: "end-session",
      session_id: endedSid,
    });
    expect(byPage.headers.get("location")).toBe("/portal/security?ended=1");
    expect(await sidsReceived()).toEqual([endedSid]);

    const otherSid = await sessionOf(other);
    received.length = 0;
    const changed = await changer.post("account", "/interaction/account", {
      action: "change-password",
      current_password: password,
      new_password: "wolkenkratzer gleitsicht bahnhof",
    });
    expect(changed.headers.get("location")).toBe("/portal/profile?done=password");
    expect(await sidsReceived()).toEqual([otherSid]);
  });

  it("tells no client that is not approved, and forgets a removed client's sessions", async () => {
    const db = service().database.db;
    received.length = 0;
    const { agent } = await signedInToRp();
    await db.client.update({ where: { id: rp.client_id }, data: { status: "pending" } });
    forgetClient(rp.client_id);
    try {
      await agent.post("portal", "/interaction/portal", { action: "sign-out-everywhere" });
      expect(received).toEqual([]);
    } finally {
      await db.client.update({ where: { id: rp.client_id }, data: { status: "approved" } });
      forgetClient(rp.client_id);
    }
    const gone = parseClientMetadata(
      { client_id: "rp-gone", redirect_uris: [rp.redirect_uri], backchannel_logout_uri: "https://rp.example/bc" },
      "platform",
    );
    await registerClient(prismaStores(db), gone, { value: "rp-gone-secret" });
    await authorizeWithConsent(new UserAgent(), {
      client_id: "rp-gone",
      redirect_uri: rp.redirect_uri,
      response_type: "code",
      scope: "openid",
      state: "s",
    });
    expect(await db.loginSessionClient.count({ where: { clientId: "rp-gone" } })).toBe(1);
    await removeClient(prismaStores(db), "rp-gone");
    expect(await db.loginSessionClient.count({ where: { clientId: "rp-gone" } })).toBe(0);
  });

  it("redirects straight away when no client of the session registered logout URIs", async () => {
    const agent = new UserAgent();
    const { code } = await authorizeWithConsent(agent, {
      client_id: "demo-web",
      redirect_uri: "http://localhost:4000/callback",
      response_type: "code",
      scope: "openid",
      state: "s",
    });
    const tokens = await (
      await call(
        "token",
        formRequest(
          "/connect/token",
          { grant_type: "authorization_code", code, redirect_uri: "http://localhost:4000/callback" },
          { Authorization: basic("demo-web", "demo-web-secret") },
        ),
      )
    ).json();
    const response = await agent.get(
      "endsession",
      `/connect/endsession?${new URLSearchParams({ id_token_hint: tokens.id_token })}`,
    );
    expect(response.status).toBe(302);
  });
});
