/** The authorization-code store's contract: a code is consumed once, by its own client, before it expires. */
import { describe, expect, it } from "vitest";
import { CODE_LIFETIME_SECONDS } from "@/lib/config/policy";
import type { AuthorizationCodeGrant } from "@/lib/store/models/token";
import { freshValue, later, NOW, type StoreBackend } from "./store-backend";

export function authorizationCodeContract(backend: StoreBackend): void {
  const saved = async () => {
    const { clientId, userId } = backend.subjects();
    const grant: AuthorizationCodeGrant = {
      clientId,
      userId,
      consentId: null,
      loginSessionId: null,
      redirectUri: "https://app.example/callback",
      scopes: ["openid", "profile"],
      requestedScopes: "openid profile email",
      nonce: "n-1",
      codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      dpopJkt: null,
      resources: ["https://api.example/v2", "https://partner.example/orders"],
      authTime: later(-30),
      amr: ["pwd"],
    };
    const value = freshValue("code");
    await backend.stores().authorizationCodes.save(value, grant, NOW);
    return { value, grant };
  };

  describe("authorization codes", () => {
    it("consumes a code once and returns its grant; finding it shows when", async () => {
      const { value, grant } = await saved();
      const codes = backend.stores().authorizationCodes;
      const consumed = await codes.consume(value, grant.clientId, later(1));
      expect(consumed).toMatchObject(grant);
      expect(await codes.consume(value, grant.clientId, later(2))).toBeUndefined();
      expect(await codes.find(value)).toMatchObject({
        ...grant,
        id: consumed!.id,
        consumedAt: later(1),
        expiresAt: later(CODE_LIFETIME_SECONDS),
      });
    });

    it("leaves a code to its own client: another client's attempt neither gets nor spends it", async () => {
      const { value, grant } = await saved();
      const codes = backend.stores().authorizationCodes;
      expect(await codes.consume(value, backend.subjects().otherClientId, later(1))).toBeUndefined();
      expect(await codes.consume(value, grant.clientId, later(2))).toMatchObject(grant);
    });

    it("consumes no expired code, and finds no unknown one", async () => {
      const { value, grant } = await saved();
      const codes = backend.stores().authorizationCodes;
      expect(await codes.consume(value, grant.clientId, later(CODE_LIFETIME_SECONDS))).toBeUndefined();
      expect((await codes.find(value))!.consumedAt).toBeNull();
      expect(await codes.find(freshValue("unknown"))).toBeNull();
    });

    it("of concurrent redemptions lets exactly one succeed", async () => {
      const { value, grant } = await saved();
      const codes = backend.stores().authorizationCodes;
      const outcomes = await Promise.all(
        Array.from({ length: 5 }, () => codes.consume(value, grant.clientId, later(1))),
      );
      expect(outcomes.filter(Boolean)).toHaveLength(1);
    });
  });
}
