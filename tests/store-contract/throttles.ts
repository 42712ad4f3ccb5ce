/** The throttle store's contract: attempts count within a window, lock at a limit, and can be given back. */
import { describe, expect, it } from "vitest";
import { freshValue, later, NOW, type StoreBackend } from "./store-backend";

export function throttleContract(backend: StoreBackend): void {
  describe("throttles", () => {
    it("counts attempts within the window and starts a new window after it", async () => {
      const throttles = backend.stores().throttles;
      const key = freshValue("key");
      expect(await throttles.reserve(key, 60, NOW)).toEqual({ attempts: 1, windowStartedAt: NOW, lockedUntil: null });
      expect(await throttles.reserve(key, 60, later(30))).toMatchObject({ attempts: 2, windowStartedAt: NOW });
      expect(await throttles.reserve(key, 60, later(61))).toEqual({
        attempts: 1,
        windowStartedAt: later(61),
        lockedUntil: null,
      });
    });

    it("counts without counting: the attempts of a window still open, none after it", async () => {
      const throttles = backend.stores().throttles;
      const key = freshValue("key");
      expect(await throttles.count(key, 60, NOW)).toBe(0);
      await throttles.reserve(key, 60, NOW);
      await throttles.reserve(key, 60, later(10));
      expect(await throttles.count(key, 60, later(20))).toBe(2);
      expect(await throttles.count(key, 60, later(20))).toBe(2);
      expect(await throttles.count(key, 60, later(61))).toBe(0);
    });

    it("locks a key that reached its limit, and keeps counting while locked", async () => {
      const throttles = backend.stores().throttles;
      const key = freshValue("key");
      await throttles.reserve(key, 60, NOW);
      expect(await throttles.lockWhenReached(key, 2, later(600), NOW)).toBe(false);
      expect((await throttles.reserve(key, 60, later(1))).lockedUntil).toBeNull();
      expect(await throttles.lockWhenReached(key, 2, later(600), later(1))).toBe(true);
      // The window has passed, but the lock holds: attempts still count.
      expect(await throttles.reserve(key, 60, later(120))).toEqual({
        attempts: 3,
        windowStartedAt: NOW,
        lockedUntil: later(600),
      });
    });

    it("starts a lock once while it holds, and again after it ran out", async () => {
      const throttles = backend.stores().throttles;
      const key = freshValue("key");
      await throttles.reserve(key, 60, NOW);
      expect(await throttles.lockWhenReached(key, 1, later(600), NOW)).toBe(true);
      // A failure checked while the first one locked the key neither starts another lock-out nor moves its end.
      expect(await throttles.lockWhenReached(key, 1, later(700), later(1))).toBe(false);
      expect((await throttles.reserve(key, 60, later(2))).lockedUntil).toEqual(later(600));
      expect(await throttles.lockWhenReached(key, 1, later(1300), later(600))).toBe(true);
      expect((await throttles.reserve(key, 60, later(601))).lockedUntil).toEqual(later(1300));
    });

    it("gives an attempt back, never below zero, and forgets a key", async () => {
      const throttles = backend.stores().throttles;
      const key = freshValue("key");
      await throttles.reserve(key, 60, NOW);
      await throttles.release(key);
      await throttles.release(key);
      expect((await throttles.reserve(key, 60, later(1))).attempts).toBe(1);
      await throttles.clear(key);
      expect(await throttles.reserve(key, 60, later(2))).toEqual({
        attempts: 1,
        windowStartedAt: later(2),
        lockedUntil: null,
      });
    });
  });
}
