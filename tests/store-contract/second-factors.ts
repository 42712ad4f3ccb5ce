/** The second-factor store's contract: the app, recovery codes, passkeys and challenges, each counted once. */
import { describe, expect, it } from "vitest";
import { freshValue, later, newPerson, NOW, type StoreBackend } from "./store-backend";

export function secondFactorContract(backend: StoreBackend): void {
  const factors = () => backend.stores().secondFactors;
  const person = async () => (await newPerson(backend, "factor")).id;
  const passkey = (userId: string, credentialId = freshValue("cred")) => ({
    userId,
    credentialId,
    publicKey: "pk",
    counter: 0,
    transports: ["internal", "hybrid"],
    deviceType: "multiDevice",
    backedUp: true,
    name: "Phone",
  });

  describe("second factors", () => {
    it("confirms a waiting app only in its session with its first code, and counts each time step once", async () => {
      const userId = await person();
      expect(await factors().count(userId)).toEqual({ passkeys: 0, totp: false, required: false });
      await factors().savePendingTotp({ userId, sealedSecret: "sealed", loginSessionId: "s-1" }, NOW);
      expect(await factors().findTotp(userId)).toMatchObject({ sealedSecret: "sealed", confirmedAt: null });
      expect(await factors().useTotpStep(userId, 10, undefined, later(1))).toBe(false);
      expect(
        await factors().useTotpStep(userId, 10, { loginSessionId: "s-2", startedAfter: later(-60) }, later(1)),
      ).toBe(false);
      expect(
        await factors().useTotpStep(userId, 10, { loginSessionId: "s-1", startedAfter: later(-60) }, later(1)),
      ).toBe(true);
      expect(await factors().useTotpStep(userId, 10, undefined, later(2))).toBe(false);
      expect(await factors().useTotpStep(userId, 11, undefined, later(31))).toBe(true);
      expect((await factors().count(userId)).totp).toBe(true);
      expect(await factors().savePendingTotp({ userId, sealedSecret: "other", loginSessionId: "s-3" }, later(40))).toBe(
        false,
      );
      expect(await factors().deleteTotp(userId)).toBe(true);
      expect(await factors().deleteTotp(userId)).toBe(false);
      const events = await backend.stores().audit.list({ userId }, 10);
      expect(events.map((event) => event.type).sort()).toEqual(["user.totp_enabled", "user.totp_removed"]);
    });

    it("uses each recovery code once, and new codes replace the old", async () => {
      const userId = await person();
      await factors().replaceRecoveryCodes(userId, ["AAAA1111BBBB", "CCCC2222DDDD"], NOW);
      expect(await factors().countUnusedRecoveryCodes(userId)).toBe(2);
      expect(await factors().useRecoveryCode(userId, "AAAA1111BBBB", later(1))).toBe(true);
      expect(await factors().useRecoveryCode(userId, "AAAA1111BBBB", later(2))).toBe(false);
      expect(await factors().useRecoveryCode(userId, "ZZZZ9999ZZZZ", later(2))).toBe(false);
      expect(await factors().countUnusedRecoveryCodes(userId)).toBe(1);
      await factors().replaceRecoveryCodes(userId, ["EEEE3333FFFF"], later(3));
      expect(await factors().useRecoveryCode(userId, "CCCC2222DDDD", later(4))).toBe(false);
      expect(await factors().countUnusedRecoveryCodes(userId)).toBe(1);
    });

    it("registers a credential once, moves its counter from the value read, and lets only its owner change it", async () => {
      const userId = await person();
      const stranger = await person();
      const key = passkey(userId);
      expect(await factors().savePasskey(key, NOW)).toBe(true);
      expect(await factors().savePasskey({ ...key, userId: stranger }, NOW)).toBe(false);
      const stored = (await factors().findPasskey(key.credentialId))!;
      expect(stored).toMatchObject({ ...key, lastUsedAt: null, createdAt: NOW });
      expect(
        await factors().recordPasskeyUse({ id: stored.id, seen: 0 }, { counter: 5, backedUp: false }, later(1)),
      ).toBe(true);
      expect(
        await factors().recordPasskeyUse({ id: stored.id, seen: 0 }, { counter: 6, backedUp: false }, later(2)),
      ).toBe(false);
      expect(await factors().listPasskeys(userId)).toMatchObject([
        { counter: 5, backedUp: false, lastUsedAt: later(1) },
      ]);
      expect(await factors().renamePasskey(stranger, stored.id, "Mine")).toBe(false);
      expect(await factors().renamePasskey(userId, stored.id, "Laptop")).toBe(true);
      expect(await factors().deletePasskey(stranger, stored.id)).toBe(false);
      expect((await factors().count(userId)).passkeys).toBe(1);
      expect(await factors().deletePasskey(userId, stored.id)).toBe(true);
      expect(await factors().listPasskeys(userId)).toEqual([]);
    });

    it("lists the factors added lately, and removes them all at once with the event", async () => {
      const userId = await person();
      await factors().savePasskey(passkey(userId), NOW);
      await factors().savePendingTotp({ userId, sealedSecret: "s", loginSessionId: "s-1" }, NOW);
      await factors().useTotpStep(userId, 1, { loginSessionId: "s-1", startedAfter: later(-60) }, later(5));
      await factors().replaceRecoveryCodes(userId, ["AAAA1111BBBB"], NOW);
      expect(await factors().listAddedSince(userId, later(-1))).toEqual([
        { kind: "passkey", addedAt: NOW },
        { kind: "app", addedAt: later(5) },
      ]);
      expect(await factors().listAddedSince(userId, later(1))).toEqual([{ kind: "app", addedAt: later(5) }]);
      expect(await factors().deleteAll(userId, { mail: [], by: "operator" }, later(10))).toBe(2);
      expect(await factors().count(userId)).toMatchObject({ passkeys: 0, totp: false });
      expect(await factors().countUnusedRecoveryCodes(userId)).toBe(0);
      expect(await factors().deleteAll(userId, { mail: [] }, later(11))).toBe(0);
    });

    it("counts a WebAuthn challenge once", async () => {
      const challenge = { hash: freshValue("challenge"), purpose: "sign_in" as const, expiresAt: later(300) };
      expect(await factors().recordChallengeUse(challenge, NOW)).toBe(true);
      expect(await factors().recordChallengeUse(challenge, later(1))).toBe(false);
    });
  });
}
