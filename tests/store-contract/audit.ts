/** The audit store's contract: events come back newest first, filtered by type, client, user and time. */
import { describe, expect, it } from "vitest";
import type { StoreBackend } from "./store-backend";

export function auditContract(backend: StoreBackend): void {
  describe("audit trail", () => {
    it("lists recorded events newest first, by type, client and user, at most as many as asked", async () => {
      const audit = backend.stores().audit;
      const { clientId, userId } = backend.subjects();
      const before = new Date(Date.now() - 1000);
      await audit.record({ type: "client.updated", clientId, details: { step: 1 } });
      await new Promise((resolve) => setTimeout(resolve, 5));
      await audit.record({ type: "client.updated", clientId, userId, details: { step: 2 } });
      await audit.record({ type: "client.removed", clientId: "elsewhere", ipAddress: "192.0.2.1" });

      const updates = await audit.list({ type: "client.updated", clientId, from: before }, 10);
      expect(updates.map((event) => JSON.parse(event.details).step)).toEqual([2, 1]);
      expect(updates[0]).toMatchObject({ type: "client.updated", clientId, userId, ipAddress: null });
      expect(await audit.list({ type: "client.updated", clientId, userId, from: before }, 10)).toHaveLength(1);
      expect(await audit.list({ type: "client.updated", clientId, from: before }, 1)).toHaveLength(1);
      expect(await audit.list({ clientId, to: before }, 10)).toEqual(
        expect.not.arrayContaining([expect.objectContaining({ details: '{"step":1}' })]),
      );
      expect((await audit.list({ clientId: "elsewhere", from: before }, 10))[0]).toMatchObject({
        type: "client.removed",
        userId: null,
        ipAddress: "192.0.2.1",
        details: "{}",
      });
    });
  });
}
