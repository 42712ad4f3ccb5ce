/** The ticket store's contract: a ticket is found by its value, with its user, and stored once. */
import { describe, expect, it } from "vitest";
import { later, newPerson, NOW, type StoreBackend } from "./store-backend";

export function ticketContract(backend: StoreBackend): void {
  describe("tickets", () => {
    it("finds a ticket by its value with its user, refuses the same value twice, and finds no unknown one", async () => {
      const { email, id: userId } = await newPerson(backend, "ticket");
      const tickets = backend.stores().tickets;
      const value = crypto.randomUUID();
      await tickets.save(value, userId, NOW, later(28_800));
      expect(await tickets.findWithUser(value)).toMatchObject({
        expiresAt: later(28_800),
        revokedAt: null,
        user: { id: userId, email, active: true },
      });
      await expect(tickets.save(value, userId, NOW, later(60))).rejects.toThrow();
      expect(await tickets.findWithUser(crypto.randomUUID())).toBeNull();
    });
  });
}
