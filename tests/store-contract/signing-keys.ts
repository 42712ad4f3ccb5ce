/** The signing-key store's contract: one active key per algorithm, rotated keys published until they retire. */
import { describe, expect, it } from "vitest";
import { KEY_RETENTION_SECONDS } from "@/lib/config/policy";
import { ensureSigningKeys, rotateSigningKey } from "@/lib/oauth/keys/signing-keys";
import { forgetKeySet } from "@/lib/store/signing-key-store";
import { later, NOW, type StoreBackend } from "./store-backend";

export function signingKeyContract(backend: StoreBackend): void {
  describe("signing keys", () => {
    it("keeps one active key per algorithm, and publishes a rotated-out key until it retires", async () => {
      const keys = backend.stores().signingKeys;
      const { secretKey } = backend;
      await ensureSigningKeys(keys, ["PS256"], secretKey, NOW);
      expect(await keys.hasActive("PS256")).toBe(true);
      expect(await ensureSigningKeys(keys, ["PS256"], secretKey, NOW)).toEqual([]);
      forgetKeySet();
      const before = (await keys.keySet(secretKey)).active.get("PS256")!.kid;

      const { kid, retired } = await rotateSigningKey(keys, "PS256", secretKey, new Date());
      expect(retired).toEqual([before]);
      forgetKeySet();
      const rotated = await keys.keySet(secretKey);
      expect(rotated.active.get("PS256")!.kid).toBe(kid);
      expect(rotated.jwks.keys.map((key) => key.kid)).toEqual(expect.arrayContaining([kid, before]));
      forgetKeySet();
      const afterRetirement = await keys.keySet(secretKey, later(KEY_RETENTION_SECONDS + 60, new Date()));
      expect(afterRetirement.jwks.keys.map((key) => key.kid)).not.toContain(before);
      forgetKeySet();

      const listed = await keys.list();
      expect(listed.find((key) => key.id === before)).toMatchObject({
        algorithm: "PS256",
        supersededAt: expect.any(Date),
      });
      expect(listed.find((key) => key.id === kid)).toMatchObject({ supersededAt: null, retiredAt: null });
      const rotations = await backend.stores().audit.list({ type: "signing_key.rotated" }, 100);
      expect(rotations.some((event) => JSON.parse(event.details).kid === kid)).toBe(true);
    });

    it("retires a superseded key at once, once, and never the active one", async () => {
      const keys = backend.stores().signingKeys;
      const { secretKey } = backend;
      await ensureSigningKeys(keys, ["ES256"], secretKey, NOW);
      forgetKeySet();
      const old = (await keys.keySet(secretKey)).active.get("ES256")!.kid;
      const { kid } = await rotateSigningKey(keys, "ES256", secretKey, new Date());
      expect(await keys.retire(kid, new Date())).toBe("active");
      expect(await keys.retire("no-such-key", new Date())).toBe("not_found");
      const outcomes = await Promise.all([keys.retire(old, new Date(), "op"), keys.retire(old, new Date(), "op")]);
      expect(outcomes.sort()).toEqual(["already_retired", "retired"]);
      forgetKeySet();
      expect((await keys.keySet(secretKey)).jwks.keys.map((key) => key.kid)).not.toContain(old);
      expect((await keys.list()).find((key) => key.id === old)!.retiredAt!.getTime()).toBeLessThanOrEqual(Date.now());
      const events = await backend.stores().audit.list({ type: "signing_key.retired" }, 100);
      expect(events.filter((event) => JSON.parse(event.details).kid === old)).toHaveLength(1);
      forgetKeySet();
    });
  });
}
