/** The authorization-request store's contract: pushed requests and consent prompts, each used once. */
import { describe, expect, it } from "vitest";
import { INTERACTION_LIFETIME_SECONDS, PUSHED_REQUEST_LIFETIME_SECONDS } from "@/lib/config/policy";
import { freshValue, later, newPerson, NOW, type StoreBackend } from "./store-backend";

export function authorizationRequestContract(backend: StoreBackend): void {
  const requests = () => backend.stores().authorizationRequests;
  const session = async () => {
    const { id } = await newPerson(backend, "prompt");
    return backend.stores().loginSessions.save(freshValue("cookie"), id, {}, NOW, ["pwd"]);
  };

  describe("authorization requests", () => {
    it("keeps a consent prompt for its session only, and gives it to one decision", async () => {
      const sessionId = await session();
      const other = await session();
      const { clientId } = backend.subjects();
      const id = await requests().openInteraction(
        sessionId,
        clientId,
        [
          ["scope", "openid"],
          ["state", "s1"],
        ],
        NOW,
      );
      expect((await requests().findInteraction(id, sessionId, later(1)))!.parameters.get("state")).toBe("s1");
      expect(await requests().findInteraction(id, other, later(1))).toBeUndefined();
      expect(await requests().findInteraction(id, sessionId, later(INTERACTION_LIFETIME_SECONDS))).toBeUndefined();
      expect(await requests().takeInteraction(id, other, later(1))).toBeUndefined();
      const taken = await Promise.all([1, 2, 3].map(() => requests().takeInteraction(id, sessionId, later(2))));
      expect(taken.filter(Boolean)).toHaveLength(1);
      expect(await requests().findInteraction(id, sessionId, later(3))).toBeUndefined();
    });

    it("starts a pushed request for its client within its lifetime, extends it, and uses it once", async () => {
      const { clientId, otherClientId } = backend.subjects();
      const waiting = await requests().countWaiting(clientId, NOW);
      const id = await requests().push(clientId, [["scope", "openid"]], NOW);
      expect(await requests().countWaiting(clientId, NOW)).toBe(waiting + 1);
      expect(await requests().startPushed(id, otherClientId, later(1))).toBe("unknown");
      expect(await requests().startPushed(freshValue("nothing"), clientId, later(1))).toBe("unknown");
      const started = await requests().startPushed(id, clientId, later(5));
      expect(started).toMatchObject({ startedAt: later(5) });
      expect(typeof started !== "string" && started.parameters.get("scope")).toBe("openid");
      expect(await requests().countWaiting(clientId, later(5))).toBe(waiting);
      // Started, it lives as long as a sign-in, beyond its first minute.
      expect(await requests().startPushed(id, clientId, later(PUSHED_REQUEST_LIFETIME_SECONDS + 10))).toMatchObject({
        startedAt: later(5),
      });
      expect(await requests().usePushed(id, later(70))).toBe(true);
      expect(await requests().usePushed(id, later(71))).toBe(false);
      expect(await requests().startPushed(id, clientId, later(72))).toBe("used");
    });

    it("refuses a pushed request its user agent brought too late", async () => {
      const { clientId } = backend.subjects();
      const id = await requests().push(clientId, [["scope", "openid"]], NOW);
      expect(await requests().startPushed(id, clientId, later(PUSHED_REQUEST_LIFETIME_SECONDS + 1))).toBe("expired");
      expect(await requests().usePushed(id, later(PUSHED_REQUEST_LIFETIME_SECONDS + 2))).toBe(false);
    });
  });
}
