/** The refresh-token store's contract: what every implementation does with values, slides, rotations, revocations. */
import { describe, expect, it } from "vitest";
import { REFRESH_TOKEN_LIFETIME_SECONDS } from "@/lib/config/policy";
import type { RefreshTokenGrant } from "@/lib/store/models/token";
import { freshValue, later, NOW, type StoreBackend } from "./store-backend";

export function refreshTokenContract(backend: StoreBackend): void {
  const grant = (overrides: Partial<RefreshTokenGrant> = {}): RefreshTokenGrant => {
    const { clientId, userId } = backend.subjects();
    return {
      familyId: crypto.randomUUID(),
      clientId,
      userId,
      consentId: null,
      authorizationCodeId: null,
      loginSessionId: null,
      scopes: ["openid", "offline_access"],
      authTime: later(-60),
      amr: ["pwd", "otp", "mfa"],
      dpopJkt: null,
      // RFC 8707: the grant's resources travel with the token, through slides and rotations (toMatchObject below).
      resources: ["https://api.example/v2", "https://partner.example/orders"],
      ...overrides,
    };
  };
  const saved = async (overrides: Partial<RefreshTokenGrant> = {}, now = NOW) => {
    const value = freshValue("rt");
    const tokenGrant = grant(overrides);
    await backend.stores().refreshTokens.save(value, tokenGrant, now);
    return { value, grant: tokenGrant };
  };

  describe("refresh tokens", () => {
    it("finds a saved token by its value, with its grant, valid for the sliding year", async () => {
      const { value, grant: tokenGrant } = await saved({ dpopJkt: "jkt-1" });
      const token = await backend.stores().refreshTokens.find(value);
      expect(token).toMatchObject({
        ...tokenGrant,
        createdAt: NOW,
        lastUsedAt: null,
        rotatedAt: null,
        revokedAt: null,
      });
      expect(token!.expiresAt).toEqual(later(REFRESH_TOKEN_LIFETIME_SECONDS));
      expect(await backend.stores().refreshTokens.find(`${value}x`)).toBeNull();
    });

    it("refuses a second token of the same value", async () => {
      const { value } = await saved();
      await expect(backend.stores().refreshTokens.save(value, grant(), NOW)).rejects.toThrow();
    });

    it("slides a usable token's expiry for its own client only, and returns its grant", async () => {
      const { value, grant: tokenGrant } = await saved();
      const { otherClientId } = backend.subjects();
      const store = backend.stores().refreshTokens;
      expect(await store.slide(value, otherClientId, later(10))).toBeUndefined();
      const used = await store.slide(value, tokenGrant.clientId, later(10));
      expect(used).toMatchObject(tokenGrant);
      const token = await store.find(value);
      expect(token!.lastUsedAt).toEqual(later(10));
      expect(token!.expiresAt).toEqual(later(REFRESH_TOKEN_LIFETIME_SECONDS + 10));
    });

    it("slides no expired, revoked or rotated-out token", async () => {
      const store = backend.stores().refreshTokens;
      const expired = await saved();
      expect(await store.slide(expired.value, expired.grant.clientId, later(REFRESH_TOKEN_LIFETIME_SECONDS))).toBe(
        undefined,
      );
      const revoked = await saved();
      await store.revoke({ familyId: revoked.grant.familyId }, later(1));
      expect(await store.slide(revoked.value, revoked.grant.clientId, later(2))).toBeUndefined();
      const rotated = await saved();
      expect(await store.rotate((await store.find(rotated.value))!, freshValue("next"), later(1))).toBe(true);
      expect(await store.slide(rotated.value, rotated.grant.clientId, later(2))).toBeUndefined();
    });

    it("rotates a token out once, storing its successor with the same grant", async () => {
      const { value, grant: tokenGrant } = await saved({ dpopJkt: "jkt-2" });
      const store = backend.stores().refreshTokens;
      const token = (await store.find(value))!;
      const successor = freshValue("successor");
      expect(await store.rotate(token, successor, later(5))).toBe(true);
      expect(await store.rotate(token, freshValue("second"), later(6))).toBe(false);
      expect(await store.find(value)).toMatchObject({ rotatedAt: later(5), lastUsedAt: later(5) });
      expect(await store.find(successor)).toMatchObject({ ...tokenGrant, createdAt: later(5), rotatedAt: null });
    });

    it("revokes every live token of a family, a code's tokens, or a user's at one client, once", async () => {
      const store = backend.stores().refreshTokens;
      const { otherClientId, userId } = backend.subjects();
      const first = await saved();
      await saved({ familyId: first.grant.familyId });
      expect(await store.revoke({ familyId: first.grant.familyId }, later(1))).toBe(2);
      expect(await store.revoke({ familyId: first.grant.familyId }, later(2))).toBe(0);
      expect((await store.find(first.value))!.revokedAt).toEqual(later(1));

      const codes = backend.stores().authorizationCodes;
      const code = freshValue("code");
      const { clientId, userId: codeUser, consentId, loginSessionId, scopes, authTime, amr } = grant();
      const codeGrant = { clientId, userId: codeUser, consentId, loginSessionId, scopes, authTime, amr, dpopJkt: null };
      const resources: string[] = [];
      const redirect = {
        redirectUri: "https://app.example/cb",
        requestedScopes: "openid",
        nonce: null,
        codeChallenge: null,
      };
      await codes.save(code, { ...codeGrant, ...redirect, resources }, NOW);
      const codeId = (await codes.find(code))!.id;
      const fromCode = await saved({ authorizationCodeId: codeId });
      expect(await store.revoke({ authorizationCodeId: codeId }, later(1))).toBe(1);
      expect((await store.find(fromCode.value))!.revokedAt).toEqual(later(1));

      const elsewhere = await saved({ clientId: otherClientId });
      await store.revoke({ userId, clientId: backend.subjects().clientId }, later(3));
      expect((await store.find(elsewhere.value))!.revokedAt).toBeNull();
    });

    it("lists the clients of a user's unrevoked tokens with their last use", async () => {
      const store = backend.stores().refreshTokens;
      const { otherClientId, userId } = backend.subjects();
      const used = await saved({ clientId: otherClientId });
      await store.slide(used.value, otherClientId, later(30));
      const uses = await store.listUses(userId);
      expect(uses).toContainEqual({ clientId: otherClientId, lastUsedAt: later(30) });
      await store.revoke({ userId, clientId: otherClientId }, later(40));
      expect((await store.listUses(userId)).filter((use) => use.clientId === otherClientId)).toEqual([]);
    });
  });
}
