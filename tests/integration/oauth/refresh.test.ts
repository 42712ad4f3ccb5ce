import { prismaStores } from "@/lib/store/stores";
import { ROTATION_GRACE_SECONDS } from "@/lib/config/policy";
import { createLocalJWKSet, decodeJwt, jwtVerify } from "jose";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { parseClientMetadata } from "@/lib/admin/client-metadata";
import { registerClient, updateClient } from "@/lib/admin/client-registry";
import { hashToken } from "@/lib/crypto/tokens";
import { getPrismaClient } from "@/lib/db/prisma";
import { forgetUser } from "@/lib/store/user-store";
import {
  authorizeWithConsent,
  basic,
  call,
  demoWeb,
  formRequest,
  ISSUER,
  pkcePair,
  UserAgent,
  useOAuthService,
} from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const rotating = { client_id: "rotating-web", redirect_uri: "https://rotating.example/cb", secret: "rotating-secret" };
const OFFLINE_SCOPE = "openid profile platform.catalogs.read offline_access";

const token = (form: Record<string, string>, headers: Record<string, string> = {}) =>
  call("token", formRequest("/connect/token", form, headers));

async function offlineGrant(client: {
  client_id: string;
  redirect_uri: string;
  secret: string;
}): Promise<{ refresh_token: string; access_token: string }> {
  const agent = new UserAgent();
  const { code } = await authorizeWithConsent(agent, {
    client_id: client.client_id,
    redirect_uri: client.redirect_uri,
    response_type: "code",
    scope: OFFLINE_SCOPE,
    state: "s",
  });
  const response = await token(
    { grant_type: "authorization_code", code, redirect_uri: client.redirect_uri },
    { Authorization: basic(client.client_id, client.secret) },
  );
  expect(response.status).toBe(200);
  return response.json();
}

/** demo-native (a public client) signs the demo optician in with PKCE on a loopback redirect and redeems the code. */
async function nativeOfflineGrant(redirect_uri: string): Promise<{ refresh_token: string; access_token: string }> {
  const { verifier, challenge } = pkcePair();
  const params = { client_id: "demo-native", redirect_uri, response_type: "code", scope: OFFLINE_SCOPE, state: "s" };
  const { code } = await authorizeWithConsent(new UserAgent(), {
    ...params,
    code_challenge: challenge,
    code_challenge_method: "S256",
  });
  const form = {
    grant_type: "authorization_code",
    code,
    redirect_uri,
    client_id: "demo-native",
    code_verifier: verifier,
  };
  return (await token(form)).json();
}

const refresh = (
  client: { client_id: string; secret: string },
  refreshToken: string,
  extra: Record<string, string> = {},
) =>
  token(
    { grant_type: "refresh_token", refresh_token: refreshToken, ...extra },
    { Authorization: basic(client.client_id, client.secret) },
  );

async function expectError(response: Response, error: string, status = 400) {
  expect(response.status).toBe(status);
  expect((await response.json()).error).toBe(error);
}

const stored = (refreshToken: string) =>
  service().database.db.refreshToken.findUniqueOrThrow({ where: { tokenHash: hashToken(refreshToken) } });

beforeAll(async () => {
  const registration = parseClientMetadata(
    {
      client_id: rotating.client_id,
      redirect_uris: [rotating.redirect_uri],
      offline_access: true,
      refresh_token_policy: "rotate",
      scope: OFFLINE_SCOPE,
    },
    "platform",
  );
  await registerClient(prismaStores(service().database.db), registration, { value: rotating.secret });
});

describe(`grant_type=refresh_token, reuse policy, on ${testProvider()}`, () => {
  it("keeps the token valid, slides its expiry to a year from now, and returns new access and ID tokens", async () => {
    const grant = await offlineGrant(demoWeb);
    const db = service().database.db;
    const row = await stored(grant.refresh_token);
    await db.refreshToken.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() + 86_400_000) } });

    const response = await refresh(demoWeb, grant.refresh_token);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.json();
    expect(body.refresh_token).toBe(grant.refresh_token);
    expect(body.access_token).not.toBe(grant.access_token);
    expect(body.scope).toBeUndefined();
    const after = await stored(grant.refresh_token);
    expect(after.expiresAt.getTime()).toBeGreaterThan(Date.now() + 364 * 86_400_000);
    expect(after.lastUsedAt).not.toBeNull();

    const { GET } = await import("@/app/.well-known/openid-configuration/jwks/route");
    const keys = createLocalJWKSet(await (await GET(new Request(`${ISSUER}/jwks`))).json());
    const id = await jwtVerify(body.id_token, keys, { issuer: ISSUER, audience: "demo-web" });
    expect(id.payload.auth_time).toBe(decodeJwt(grant.access_token).auth_time);
    expect(id.payload.nonce).toBeUndefined();
    expect((await refresh(demoWeb, grant.refresh_token)).status).toBe(200);
  });

  it("narrows the scope on request but never widens it", async () => {
    const grant = await offlineGrant(demoWeb);
    const narrowed = await (await refresh(demoWeb, grant.refresh_token, { scope: "platform.catalogs.read" })).json();
    expect(narrowed.scope).toBeUndefined(); // exactly what was asked
    expect(decodeJwt(narrowed.access_token).scope).toBe("platform.catalogs.read");
    expect(narrowed.id_token).toBeUndefined();
    await expectError(await refresh(demoWeb, grant.refresh_token, { scope: "openid email" }), "invalid_scope");
    expect(decodeJwt((await (await refresh(demoWeb, grant.refresh_token)).json()).access_token).scope).toBe(
      OFFLINE_SCOPE,
    );
  });

  it("refuses another client's, a revoked, an expired, and an unknown token, and a deactivated user's", async () => {
    const grant = await offlineGrant(demoWeb);
    await expectError(await refresh(rotating, grant.refresh_token), "invalid_grant");
    expect((await refresh(demoWeb, grant.refresh_token)).status).toBe(200); // untouched by the attempt
    await expectError(await refresh(demoWeb, "unknown"), "invalid_grant");
    await expectError(
      await token({ grant_type: "refresh_token" }, { Authorization: basic(demoWeb.client_id, demoWeb.secret) }),
      "invalid_request",
    );

    const db = service().database.db;
    const row = await stored(grant.refresh_token);
    await db.refreshToken.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expectError(await refresh(demoWeb, grant.refresh_token), "invalid_grant");
    await db.refreshToken.update({
      where: { id: row.id },
      data: { expiresAt: new Date(Date.now() + 60_000), revokedAt: new Date() },
    });
    await expectError(await refresh(demoWeb, grant.refresh_token), "invalid_grant");

    const other = await offlineGrant(demoWeb);
    await db.user.update({ where: { email: "optician@demo.test" }, data: { active: false } });
    forgetUser(); // changed behind the user cache's back; without this it takes effect within USER_CACHE_SECONDS
    try {
      await expectError(await refresh(demoWeb, other.refresh_token), "invalid_grant");
    } finally {
      await db.user.update({ where: { email: "optician@demo.test" }, data: { active: true } });
      forgetUser();
    }
  });

  it("requires confidential clients to authenticate and lets public clients send their client_id", async () => {
    const grant = await offlineGrant(demoWeb);
    await expectError(
      await token({ grant_type: "refresh_token", refresh_token: grant.refresh_token, client_id: "demo-web" }),
      "invalid_client",
      401,
    );

    const native = await nativeOfflineGrant("http://127.0.0.1:50505/cb");
    expect(native.refresh_token).toBeTruthy();
    const refreshed = await token({
      grant_type: "refresh_token",
      refresh_token: native.refresh_token,
      client_id: "demo-native",
    });
    expect(refreshed.status).toBe(200);
  });

  it("rotates a public client's refresh token: a replay after the grace period revokes its family (RFC 9700 §4.14.2)", async () => {
    const native = await nativeOfflineGrant("http://127.0.0.1:50506/cb");
    const next = await (
      await token({ grant_type: "refresh_token", refresh_token: native.refresh_token, client_id: "demo-native" })
    ).json();
    expect(next.refresh_token).toBeTruthy();
    expect(next.refresh_token).not.toBe(native.refresh_token);

    const db = service().database.db;
    const original = await stored(native.refresh_token);
    await db.refreshToken.update({
      where: { id: original.id },
      data: { rotatedAt: new Date(Date.now() - (ROTATION_GRACE_SECONDS + 1) * 1000) },
    });
    await expectError(
      await token({ grant_type: "refresh_token", refresh_token: native.refresh_token, client_id: "demo-native" }),
      "invalid_grant",
    );
    await expectError(
      await token({ grant_type: "refresh_token", refresh_token: next.refresh_token, client_id: "demo-native" }),
      "invalid_grant",
    );
  });

  it("never gives refresh tokens to clients without offline access", async () => {
    const { verifier, challenge } = pkcePair();
    const { code } = await authorizeWithConsent(new UserAgent(), {
      client_id: "demo-spa",
      redirect_uri: "http://localhost:5173/callback",
      response_type: "code",
      scope: "openid",
      state: "s",
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    const body = await (
      await token({
        grant_type: "authorization_code",
        code,
        redirect_uri: "http://localhost:5173/callback",
        client_id: "demo-spa",
        code_verifier: verifier,
      })
    ).json();
    expect(body.refresh_token).toBeUndefined();
    await expectError(
      await token({ grant_type: "refresh_token", refresh_token: "x", client_id: "demo-spa" }),
      "unauthorized_client",
    );
  });

  it("refuses a token that had expired when its update ran as expired, without revoking it, though an earlier request slid it since", async () => {
    const grant = await offlineGrant(demoWeb);
    const db = service().database.db;
    const row = await stored(grant.refresh_token);
    await db.refreshToken.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    // The refusal's read (on the service's own client) comes after a request of an earlier instant, which still found
    // the token usable, slid it.
    const served = getPrismaClient(service().database.target).refreshToken;
    const read = served.findUnique.bind(served);
    const reads = vi.spyOn(served, "findUnique").mockImplementation((async (query: Parameters<typeof read>[0]) => {
      await db.refreshToken.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() + 60_000) } });
      return read(query);
    }) as unknown as typeof served.findUnique);
    try {
      const response = await refresh(demoWeb, grant.refresh_token);
      expect(reads).toHaveBeenCalled();
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        error: "invalid_grant",
        error_description: "the refresh token has expired",
      });
    } finally {
      reads.mockRestore();
    }
    expect((await stored(grant.refresh_token)).revokedAt).toBeNull();
    expect((await refresh(demoWeb, grant.refresh_token)).status).toBe(200);
  });

  it("lets concurrent refreshes of one token all succeed and keeps one row", async () => {
    const grant = await offlineGrant(demoWeb);
    const responses = await Promise.all(Array.from({ length: 8 }, () => refresh(demoWeb, grant.refresh_token)));
    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(200));
    const row = await stored(grant.refresh_token);
    expect(await service().database.db.refreshToken.count({ where: { familyId: row.familyId } })).toBe(1);
    expect(row.revokedAt).toBeNull();
  });
});

const liveTokens = (familyId: string) =>
  service().database.db.refreshToken.count({ where: { familyId, revokedAt: null, rotatedAt: null } });

describe(`grant_type=refresh_token, rotate policy, on ${testProvider()}`, () => {
  it("hands out a new refresh token each time; the old one is refused after the grace period and revokes the family", async () => {
    const grant = await offlineGrant(rotating);
    const first = await (await refresh(rotating, grant.refresh_token)).json();
    expect(first.refresh_token).toBeTruthy();
    expect(first.refresh_token).not.toBe(grant.refresh_token);
    const second = await (await refresh(rotating, first.refresh_token)).json();
    expect(second.refresh_token).not.toBe(first.refresh_token);

    // A retry with the previous token within the grace period does not break a client that raced itself.
    const retry = await refresh(rotating, first.refresh_token);
    expect(retry.status).toBe(200);

    const db = service().database.db;
    const original = await stored(grant.refresh_token);
    await db.refreshToken.update({
      where: { id: original.id },
      data: { rotatedAt: new Date(Date.now() - (ROTATION_GRACE_SECONDS + 1) * 1000) },
    });
    await expectError(await refresh(rotating, grant.refresh_token), "invalid_grant");
    const family = await db.refreshToken.findMany({ where: { familyId: original.familyId } });
    expect(family.length).toBe(3);
    expect(family.every((t) => t.revokedAt !== null)).toBe(true);
    await expectError(await refresh(rotating, second.refresh_token), "invalid_grant");
  });

  it("answers a retry within the grace period with the same successor, or its live descendant, never a second branch", async () => {
    const grant = await offlineGrant(rotating);
    const { familyId } = await stored(grant.refresh_token);
    const first = await (await refresh(rotating, grant.refresh_token)).json();
    const again = await (await refresh(rotating, grant.refresh_token)).json();
    expect(again.refresh_token).toBe(first.refresh_token);
    expect(again.access_token).toBeTruthy();
    expect(await liveTokens(familyId)).toBe(1);

    const second = await (await refresh(rotating, first.refresh_token)).json();
    expect((await (await refresh(rotating, grant.refresh_token)).json()).refresh_token).toBe(second.refresh_token);
    expect((await (await refresh(rotating, first.refresh_token)).json()).refresh_token).toBe(second.refresh_token);
    expect(await liveTokens(familyId)).toBe(1);
    expect(await service().database.db.refreshToken.count({ where: { familyId } })).toBe(3);

    // After the grace period the chain keeps working from its one live token, and nothing else does.
    await service().database.db.refreshToken.updateMany({
      where: { familyId, rotatedAt: { not: null } },
      data: { rotatedAt: new Date(Date.now() - (ROTATION_GRACE_SECONDS + 1) * 1000) },
    });
    const third = await refresh(rotating, second.refresh_token);
    expect(third.status).toBe(200);
    expect(await liveTokens(familyId)).toBe(1);
  });

  it("under concurrent use of one token, every request gets the one stored successor and the family has one live token", async () => {
    const grant = await offlineGrant(rotating);
    const { familyId } = await stored(grant.refresh_token);
    const responses = await Promise.all(Array.from({ length: 30 }, () => refresh(rotating, grant.refresh_token)));
    const bodies = await Promise.all(responses.map((r) => r.json()));
    expect(responses.map((r) => r.status)).toEqual(Array(30).fill(200));
    const successors = new Set(bodies.map((b) => b.refresh_token));
    expect(successors.size).toBe(1);
    const [successor] = successors;
    expect(successor).not.toBe(grant.refresh_token);
    expect(await liveTokens(familyId)).toBe(1);
    expect((await stored(successor)).rotatedAt).toBeNull();
    expect((await refresh(rotating, successor)).status).toBe(200);
    expect(await liveTokens(familyId)).toBe(1);
  });
});

describe(`revoking a family while one of its tokens rotates, on ${testProvider()}`, () => {
  const revoke = (refreshToken: string) =>
    call(
      "revocation",
      formRequest(
        "/connect/revocation",
        { token: refreshToken },
        { Authorization: basic(rotating.client_id, rotating.secret) },
      ),
    );
  const TRIALS = 15;

  it("reuse after the grace period leaves no live token, though the live one rotates at the same moment", async () => {
    const survivors: number[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      const grant = await offlineGrant(rotating);
      const { familyId, id } = await stored(grant.refresh_token);
      const first = await (await refresh(rotating, grant.refresh_token)).json();
      await service().database.db.refreshToken.update({
        where: { id },
        data: { rotatedAt: new Date(Date.now() - (ROTATION_GRACE_SECONDS + 1) * 1000) },
      });
      const [reuse] = await Promise.all([
        refresh(rotating, grant.refresh_token),
        refresh(rotating, first.refresh_token),
      ]);
      expect(reuse.status).toBe(400);
      if ((await liveTokens(familyId)) > 0) survivors.push(trial);
    }
    expect(survivors).toEqual([]);
  }, 60_000);

  it("revocation leaves no live token, though the token rotates at the same moment", async () => {
    const survivors: number[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      const grant = await offlineGrant(rotating);
      const { familyId } = await stored(grant.refresh_token);
      const [revoked] = await Promise.all([revoke(grant.refresh_token), refresh(rotating, grant.refresh_token)]);
      expect(revoked.status).toBe(200);
      if ((await service().database.db.refreshToken.count({ where: { familyId, revokedAt: null } })) > 0)
        survivors.push(trial);
    }
    expect(survivors).toEqual([]);
  }, 60_000);
});

describe(`changing a rotating client's registration, on ${testProvider()}`, () => {
  const switching = {
    client_id: "switching-web",
    redirect_uri: "https://switching.example/cb",
    secret: "switching-secret",
  };
  const metadata = (policy: string, extra: Record<string, unknown> = {}) =>
    parseClientMetadata(
      {
        client_id: switching.client_id,
        redirect_uris: [switching.redirect_uri],
        offline_access: true,
        refresh_token_policy: policy,
        scope: OFFLINE_SCOPE,
        ...extra,
      },
      "platform",
    );
  beforeAll(() => registerClient(prismaStores(service().database.db), metadata("rotate"), { value: switching.secret }));

  it("does not bring rotated-out tokens back when the client is switched to reuse", async () => {
    const grant = await offlineGrant(switching);
    const first = await (await refresh(switching, grant.refresh_token)).json();
    const second = await (await refresh(switching, first.refresh_token)).json();
    const { familyId } = await stored(grant.refresh_token);
    await service().database.db.refreshToken.updateMany({
      where: { familyId, rotatedAt: { not: null } },
      data: { rotatedAt: new Date(Date.now() - 3_600_000) },
    });
    await updateClient(prismaStores(service().database.db), switching.client_id, metadata("reuse"));
    await expectError(await refresh(switching, first.refresh_token), "invalid_grant");
    // The rotated-out token was reuse: its family, the live token included, is revoked.
    await expectError(await refresh(switching, second.refresh_token), "invalid_grant");
  });

  it("refuses to make a confidential client public, which would turn its refresh tokens into bearer tokens", async () => {
    const publicMetadata = metadata("rotate", {
      token_endpoint_auth_method: "none",
      application_type: "native",
      redirect_uris: ["com.example.switching:/cb"],
    });
    await expect(
      updateClient(prismaStores(service().database.db), switching.client_id, publicMetadata),
    ).rejects.toThrow("a confidential client cannot become public");
  });
});

describe(`rotate policy details on ${testProvider()}`, () => {
  it("does not rotate a token out when the request is refused for its scope", async () => {
    const grant = await offlineGrant(rotating);
    await expectError(await refresh(rotating, grant.refresh_token, { scope: "email" }), "invalid_scope");
    expect((await stored(grant.refresh_token)).rotatedAt).toBeNull();
    expect((await refresh(rotating, grant.refresh_token)).status).toBe(200);
  });
});
