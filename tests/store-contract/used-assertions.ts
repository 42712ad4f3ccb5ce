/** The used-assertion store's contract: each (kind, signer, jti) is accepted once while it is valid. */
import { describe, expect, it } from "vitest";
import { CLOCK_LEEWAY_SECONDS } from "@/lib/config/policy";
import type { AssertionUse } from "@/lib/store/models/token";
import { freshValue, later, NOW, type StoreBackend } from "./store-backend";

export function usedAssertionContract(backend: StoreBackend): void {
  const assertion = (overrides: Partial<AssertionUse> = {}): AssertionUse => ({
    kind: "client",
    signer: "signer-a",
    jti: freshValue("jti"),
    exp: Math.floor(later(60).getTime() / 1000),
    ...overrides,
  });

  describe("used assertions", () => {
    it("accepts a use once; another kind or signer with the same jti is another use", async () => {
      const uses = backend.stores().usedAssertions;
      const first = assertion();
      expect(await uses.recordUse(first, NOW)).toBe(true);
      expect(await uses.recordUse(first, later(1))).toBe(false);
      expect(await uses.recordUse({ ...first, kind: "dpop" }, later(1))).toBe(true);
      expect(await uses.recordUse({ ...first, signer: "signer-b" }, later(1))).toBe(true);
    });

    it("accepts the jti again once the first assertion, leeway included, has expired", async () => {
      const uses = backend.stores().usedAssertions;
      const first = assertion();
      expect(await uses.recordUse(first, NOW)).toBe(true);
      expect(await uses.recordUse(first, later(60 + CLOCK_LEEWAY_SECONDS - 1))).toBe(false);
      expect(await uses.recordUse(first, later(60 + CLOCK_LEEWAY_SECONDS + 1))).toBe(true);
    });

    it("records the use's audit event with the first use only", async () => {
      const { stores } = backend;
      const clientId = backend.subjects().otherClientId;
      const grant = assertion({ kind: "grant", signer: freshValue("https://issuer.example") });
      const event = { type: "federation.token_issued", clientId, details: { subject: grant.jti } } as const;
      expect(await stores().usedAssertions.recordUse(grant, NOW, event)).toBe(true);
      expect(await stores().usedAssertions.recordUse(grant, later(1), event)).toBe(false);
      const recorded = await stores().audit.list({ type: "federation.token_issued", clientId }, 100);
      expect(recorded.filter((row) => JSON.parse(row.details).subject === grant.jti)).toHaveLength(1);
    });
  });
}
