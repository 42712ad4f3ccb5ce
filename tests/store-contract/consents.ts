/** The consent store's contract: a decision merges with what was granted, and marks its use. */
import { describe, expect, it } from "vitest";
import { later, NOW, type StoreBackend } from "./store-backend";

export function consentContract(backend: StoreBackend): void {
  describe("consents", () => {
    it("stores a decision with its audit event, finds its scopes and id, and merges the next decision", async () => {
      const consents = backend.stores().consents;
      const { userId, otherClientId: clientId } = backend.subjects();
      await consents.save(userId, clientId, () => ["openid", "profile"], { step: "first" }, NOW);
      expect(await consents.findGrantedScopes(userId, clientId)).toEqual(["openid", "profile"]);
      const id = await consents.findId(userId, clientId);
      expect(id).toEqual(expect.any(String));
      let seen: string[] = [];
      await consents.save(userId, clientId, (current) => ((seen = current), [...current, "email"]), {}, later(1));
      expect(seen).toEqual(["openid", "profile"]);
      expect(await consents.findGrantedScopes(userId, clientId)).toEqual(["openid", "profile", "email"]);
      expect(await consents.findId(userId, clientId)).toBe(id);
      const events = await backend.stores().audit.list({ type: "consent.granted", clientId, userId }, 10);
      expect(events.some((event) => JSON.parse(event.details).step === "first")).toBe(true);
    });

    it("finds nothing for a user who never decided, and marks a use without failing", async () => {
      const consents = backend.stores().consents;
      const { userId, clientId } = backend.subjects();
      expect(await consents.findGrantedScopes(`${userId}-nobody`, clientId)).toBeNull();
      expect(await consents.findId(`${userId}-nobody`, clientId)).toBeUndefined();
      await expect(consents.markUsed({ userId, clientId }, NOW)).resolves.toBeUndefined();
    });
  });
}
