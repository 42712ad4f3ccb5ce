import { prismaStores } from "@/lib/store/stores";
import { describe, expect, it } from "vitest";
import { hashToken } from "@/lib/crypto/tokens";
import { parseClientMetadata } from "@/lib/admin/client-metadata";
import { registerClient } from "@/lib/admin/client-registry";
import {
  authorizeWithConsent,
  basic,
  call,
  demoWeb,
  formRequest,
  pkcePair,
  UserAgent,
  useOAuthService,
  refreshDemoWeb,
} from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const webAuth = { Authorization: basic(demoWeb.client_id, demoWeb.secret) };
const backendAuth = { Authorization: basic("demo-backend", "demo-backend-secret") };
const scope = "openid profile offline_access";

async function webGrant(agent = new UserAgent()): Promise<{ refresh_token: string; access_token: string }> {
  const { code } = await authorizeWithConsent(agent, {
    client_id: demoWeb.client_id,
    redirect_uri: demoWeb.redirect_uri,
    response_type: "code",
    scope,
    state: "s",
  });
  return (
    await call(
      "token",
      formRequest(
        "/connect/token",
        { grant_type: "authorization_code", code, redirect_uri: demoWeb.redirect_uri },
        webAuth,
      ),
    )
  ).json();
}

const revoke = (form: Record<string, string>, headers: Record<string, string> = webAuth) =>
  call("revocation", formRequest("/connect/revocation", form, headers));
const introspect = (form: Record<string, string>, headers: Record<string, string> = backendAuth) =>
  call("introspect", formRequest("/connect/introspect", form, headers));

describe(`POST /connect/revocation on ${testProvider()}`, () => {
  it("revokes a refresh token; the next refresh is invalid_grant", async () => {
    const grant = await webGrant();
    const response = await revoke({ token: grant.refresh_token, token_type_hint: "refresh_token" });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect((await (await refreshDemoWeb(grant.refresh_token)).json()).error).toBe("invalid_grant");
    const audit = await service().database.db.auditEvent.findFirst({
      where: { type: "token.revoked", clientId: "demo-web" },
    });
    expect(audit).not.toBeNull();
  });

  it("lets a public client revoke with its client_id", async () => {
    const { verifier, challenge } = pkcePair();
    const redirect_uri = "http://127.0.0.1:40404/cb";
    const { code } = await authorizeWithConsent(new UserAgent(), {
      client_id: "demo-native",
      redirect_uri,
      response_type: "code",
      scope,
      state: "s",
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    const grant = await (
      await call(
        "token",
        formRequest("/connect/token", {
          grant_type: "authorization_code",
          code,
          redirect_uri,
          client_id: "demo-native",
          code_verifier: verifier,
        }),
      )
    ).json();
    expect((await revoke({ token: grant.refresh_token, client_id: "demo-native" }, {})).status).toBe(200);
    const row = await service().database.db.refreshToken.findUniqueOrThrow({
      where: { tokenHash: hashToken(grant.refresh_token) },
    });
    expect(row.revokedAt).not.toBeNull();
  });

  it("answers 200 for unknown tokens and for another client's token, which stays valid", async () => {
    expect((await revoke({ token: "never-issued" })).status).toBe(200);
    const grant = await webGrant();
    expect((await revoke({ token: grant.refresh_token }, backendAuth)).status).toBe(200);
    expect((await refreshDemoWeb(grant.refresh_token)).status).toBe(200);
  });

  it("refuses access tokens with unsupported_token_type, a missing token, and bad client authentication", async () => {
    const grant = await webGrant();
    const access = await revoke({ token: grant.access_token, token_type_hint: "access_token" });
    expect(access.status).toBe(400);
    expect((await access.json()).error).toBe("unsupported_token_type");
    expect((await (await revoke({})).json()).error).toBe("invalid_request");
    const unauthenticated = await revoke({ token: grant.refresh_token }, { Authorization: basic("demo-web", "wrong") });
    expect(unauthenticated.status).toBe(401);
    expect((await refreshDemoWeb(grant.refresh_token)).status).toBe(200);
  });
});

describe(`POST /connect/introspect on ${testProvider()}`, () => {
  it("describes an access token to its own client and to resource servers, and to no other client", async () => {
    const grant = await webGrant();
    const user = await service().database.db.user.findUniqueOrThrow({ where: { email: "optician@demo.test" } });
    const described = {
      active: true,
      token_type: "Bearer",
      sub: user.id,
      client_id: "demo-web",
      scope,
      company_id: user.companyId,
    };
    const own = await introspect({ token: grant.access_token }, webAuth);
    expect(own.headers.get("cache-control")).toBe("no-store");
    expect(await own.json()).toMatchObject(described);
    // demo-backend is a client like any other: it learns nothing of demo-web's tokens (RFC 7662 §4).
    expect(await (await introspect({ token: grant.access_token })).json()).toEqual({ active: false });
    const { secret } = await registerClient(
      prismaStores(service().database.db),
      parseClientMetadata(
        {
          client_id: "platform-api",
          grant_types: ["client_credentials"],
          scope: "platform.catalogs.read",
          resource_server: true,
        },
        "platform",
      ),
    );
    expect(
      await (
        await introspect({ token: grant.access_token }, { Authorization: basic("platform-api", secret!.secret) })
      ).json(),
    ).toMatchObject(described);
  });

  it("describes a refresh token only to its own client, and only while it is usable", async () => {
    const grant = await webGrant();
    expect(
      await (await introspect({ token: grant.refresh_token, token_type_hint: "refresh_token" }, webAuth)).json(),
    ).toMatchObject({ active: true, token_type: "refresh_token", client_id: "demo-web", scope });
    expect(await (await introspect({ token: grant.refresh_token })).json()).toEqual({ active: false });
    await revoke({ token: grant.refresh_token });
    expect(await (await introspect({ token: grant.refresh_token }, webAuth)).json()).toEqual({ active: false });
  });

  it("answers active: false for garbage, and describes client credentials tokens", async () => {
    expect(await (await introspect({ token: "garbage" })).json()).toEqual({ active: false });
    const cc = await (
      await call("token", formRequest("/connect/token", { grant_type: "client_credentials" }, backendAuth))
    ).json();
    expect(await (await introspect({ token: cc.access_token })).json()).toMatchObject({
      active: true,
      sub: "demo-backend",
      client_id: "demo-backend",
    });
  });

  it("is for confidential clients only", async () => {
    const response = await introspect({ token: "x", client_id: "demo-spa" }, {});
    expect(response.status).toBe(401);
    expect((await response.json()).error).toBe("invalid_client");
  });
});

describe(`revoking a consent on ${testProvider()}`, () => {
  it("revokes the consent, its refresh tokens and unused codes in one go; sign-in asks for consent again", async () => {
    const agent = new UserAgent();
    const grant = await webGrant(agent);
    const { code: unused } = await authorizeWithConsent(agent, {
      client_id: demoWeb.client_id,
      redirect_uri: demoWeb.redirect_uri,
      response_type: "code",
      scope: "openid profile",
      state: "s",
    });
    const db = service().database.db;
    const user = await db.user.findUniqueOrThrow({ where: { email: "optician@demo.test" } });

    expect(await prismaStores(db).consents.revoke(user.id, "demo-web")).toBe(true);
    expect(await prismaStores(db).consents.revoke(user.id, "demo-web")).toBe(false);
    expect((await (await refreshDemoWeb(grant.refresh_token)).json()).error).toBe("invalid_grant");
    const redeemed = await call(
      "token",
      formRequest(
        "/connect/token",
        { grant_type: "authorization_code", code: unused, redirect_uri: demoWeb.redirect_uri },
        webAuth,
      ),
    );
    expect((await redeemed.json()).error).toBe("invalid_grant");
    expect(await db.refreshToken.count({ where: { userId: user.id, clientId: "demo-web", revokedAt: null } })).toBe(0);
    const again = await agent.authorize({
      client_id: demoWeb.client_id,
      redirect_uri: demoWeb.redirect_uri,
      response_type: "code",
      scope: "openid profile",
      state: "s",
    });
    expect(again.headers.get("location")).toMatch(/^\/consent\?/);
    expect(await db.auditEvent.count({ where: { type: "consent.revoked", userId: user.id } })).toBe(1);
  });
});
