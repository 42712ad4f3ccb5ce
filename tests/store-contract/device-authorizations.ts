/**
 * The device authorization store's contract: a request is found by its codes, decided once while pending, polled at
 * its interval (each poll too early adds five seconds, RFC 8628 §3.5) and redeemed once after approval.
 */
import { describe, expect, it } from "vitest";
import { DEVICE_CODE_LIFETIME_SECONDS, DEVICE_POLL_INTERVAL_SECONDS } from "@/lib/config/policy";
import type { DeviceGrant } from "@/lib/store/models/device-authorization";
import { freshValue, later, NOW, type StoreBackend } from "./store-backend";

export function deviceAuthorizationContract(backend: StoreBackend): void {
  const requests = () => backend.stores().deviceAuthorizations;
  const created = async (clientId = backend.subjects().clientId) => {
    const [deviceCode, userCodeHash] = [freshValue("device"), freshValue("user-code")];
    const request = {
      clientId,
      userCodeHash,
      scopes: ["openid", "offline_access"],
      resources: ["https://orders.partner.example/api"],
      network: "203.0.113.0/24",
    };
    expect(await requests().create(deviceCode, request, NOW)).toBe(true);
    return { deviceCode, userCodeHash, id: (await requests().findByDeviceCode(deviceCode))!.id };
  };
  const grant = (): DeviceGrant => ({
    userId: backend.subjects().userId,
    scopes: ["openid"],
    authTime: later(-60),
    amr: ["pwd", "otp", "mfa"],
    consentId: null,
  });

  describe("device authorizations", () => {
    it("finds a new request by its device code, its user code and, while pending, its id", async () => {
      const { deviceCode, userCodeHash, id } = await created();
      const expected = {
        id,
        clientId: backend.subjects().clientId,
        scopes: ["openid", "offline_access"],
        resources: ["https://orders.partner.example/api"],
        network: "203.0.113.0/24",
        status: "pending",
        pollInterval: DEVICE_POLL_INTERVAL_SECONDS,
        nextPollAt: NOW,
        createdAt: NOW,
        expiresAt: later(DEVICE_CODE_LIFETIME_SECONDS),
        redeemedAt: null,
        grant: null,
      };
      expect(await requests().findByDeviceCode(deviceCode)).toEqual(expected);
      expect(await requests().findByUserCode(userCodeHash)).toEqual(expected);
      expect(await requests().findPending(id, later(1))).toEqual(expected);
      expect(await requests().findPending(id, later(DEVICE_CODE_LIFETIME_SECONDS))).toBeUndefined();
      expect(await requests().findByDeviceCode(freshValue("unknown"))).toBeNull();
      expect(await requests().findByUserCode(freshValue("unknown"))).toBeNull();
    });

    it("refuses a second request with a user code another holds", async () => {
      const { userCodeHash } = await created();
      const twin = {
        clientId: backend.subjects().clientId,
        userCodeHash,
        scopes: ["openid"],
        resources: [],
        network: null,
      };
      expect(await requests().create(freshValue("device"), twin, NOW)).toBe(false);
    });

    it("counts a client's requests that wait for a decision", async () => {
      const { clientId, otherClientId } = backend.subjects();
      const before = await requests().countPending(otherClientId, later(1));
      const { id } = await created(otherClientId);
      await created(otherClientId);
      expect(await requests().countPending(otherClientId, later(1))).toBe(before + 2);
      await requests().decide(id, { deny: { userId: backend.subjects().userId } }, later(2));
      expect(await requests().countPending(otherClientId, later(3))).toBe(before + 1);
      expect(await requests().countPending(otherClientId, later(DEVICE_CODE_LIFETIME_SECONDS))).toBe(0);
      expect(await requests().countPending(clientId, later(DEVICE_CODE_LIFETIME_SECONDS))).toBe(0);
    });

    it("takes one decision while pending, with its audit event, and keeps an approval's grant", async () => {
      const { deviceCode, id } = await created();
      const decisions = await Promise.all([
        requests().decide(id, { approve: grant() }, later(5), "198.51.100.7"),
        requests().decide(id, { deny: { userId: grant().userId } }, later(5)),
      ]);
      expect(decisions.filter(Boolean)).toHaveLength(1);
      const decided = (await requests().findByDeviceCode(deviceCode))!;
      expect(await requests().findPending(id, later(6))).toBeUndefined();
      const events = await backend.stores().audit.list({ clientId: backend.subjects().clientId }, 20);
      const event = events.find((candidate) => JSON.parse(candidate.details).deviceAuthorizationId === id);
      expect(event?.type).toBe(`device.${decided.status}`);
      if (decided.status === "approved") {
        expect(decided.grant).toEqual(grant());
        expect(event?.ipAddress).toBe("198.51.100.7");
      } else expect(decided.grant).toBeNull();
    });

    it("decides no expired request", async () => {
      const { id } = await created();
      expect(await requests().decide(id, { approve: grant() }, later(DEVICE_CODE_LIFETIME_SECONDS))).toBe(false);
    });

    it("takes polls at the interval and adds five seconds for each one too early", async () => {
      const { deviceCode } = await created();
      const current = async () => (await requests().findByDeviceCode(deviceCode))!;
      expect(await requests().poll(await current(), later(1))).toBe("on_time");
      expect(await current()).toMatchObject({ pollInterval: 5, nextPollAt: later(6) });
      expect(await requests().poll(await current(), later(3))).toBe("too_early");
      expect(await current()).toMatchObject({ pollInterval: 10, nextPollAt: later(13) });
      // The grown interval is remembered: 9 s later is still too early.
      expect(await requests().poll(await current(), later(12))).toBe("too_early");
      expect(await current()).toMatchObject({ pollInterval: 15, nextPollAt: later(27) });
      expect(await requests().poll(await current(), later(27))).toBe("on_time");
      expect(await current()).toMatchObject({ pollInterval: 15, nextPollAt: later(42) });
    });

    it("of concurrent polls on time takes one, and the others are too early", async () => {
      const { deviceCode } = await created();
      const request = (await requests().findByDeviceCode(deviceCode))!;
      const outcomes = await Promise.all([1, 2, 3].map(() => requests().poll(request, later(1))));
      expect(outcomes.filter((outcome) => outcome === "on_time")).toHaveLength(1);
    });

    it("redeems an approved request once, and no pending, denied or expired one", async () => {
      const [approved, pending, denied, late] = [await created(), await created(), await created(), await created()];
      await requests().decide(approved.id, { approve: grant() }, later(5));
      await requests().decide(denied.id, { deny: { userId: grant().userId } }, later(5));
      await requests().decide(late.id, { approve: grant() }, later(5));
      const redemptions = await Promise.all([1, 2, 3].map(() => requests().redeem(approved.id, later(6))));
      expect(redemptions.filter(Boolean)).toHaveLength(1);
      expect((await requests().findByDeviceCode(approved.deviceCode))!.redeemedAt).toEqual(later(6));
      expect(await requests().redeem(pending.id, later(6))).toBe(false);
      expect(await requests().redeem(denied.id, later(6))).toBe(false);
      expect(await requests().redeem(late.id, later(DEVICE_CODE_LIFETIME_SECONDS))).toBe(false);
    });

    it("purges a request an hour after it expired", async () => {
      const { deviceCode } = await created();
      const maintenance = backend.stores().maintenance;
      await maintenance.purgeExpired({ now: later(DEVICE_CODE_LIFETIME_SECONDS + 60), pauseMs: 0 });
      expect(await requests().findByDeviceCode(deviceCode)).not.toBeNull();
      const counts = await maintenance.purgeExpired({ now: later(DEVICE_CODE_LIFETIME_SECONDS + 3601), pauseMs: 0 });
      expect(counts.deviceAuthorizations).toBeGreaterThanOrEqual(1);
      expect(await requests().findByDeviceCode(deviceCode)).toBeNull();
    });
  });
}
