/** The maintenance store's contract: health, the built-in scopes, purging what expired, and sealing anew. */
import { describe, expect, it } from "vitest";
import { acceptOlderSecretKeys, seal } from "@/lib/crypto/secret-box";
import { freshValue, later, newPerson, NOW, type StoreBackend } from "./store-backend";

export function maintenanceContract(backend: StoreBackend): void {
  describe("maintenance", () => {
    it("answers the health report with no migration pending", async () => {
      expect(await backend.stores().maintenance.readHealth()).toMatchObject({
        reachable: true,
        migrations: { pending: [] },
      });
    });

    it("stores scopes with their texts as the consent page reads them", async () => {
      const stores = backend.stores();
      const name = freshValue("contract.scope");
      const texts = (text: string) => JSON.stringify({ en: text, de: `${text} (de)` });
      await stores.maintenance.saveScopes([
        { name, kind: "api", displayNames: texts("Read"), descriptions: texts("Reads") },
      ]);
      expect(await stores.consents.listScopes([name])).toEqual([
        {
          name,
          kind: "api",
          displayNames: { en: "Read", de: "Read (de)" },
          descriptions: { en: "Reads", de: "Reads (de)" },
        },
      ]);
    });

    it("purges an expired ticket and keeps a current one", async () => {
      const stores = backend.stores();
      const { id: userId } = await newPerson(backend, "purged");
      const [expired, current] = [freshValue("expired"), freshValue("current")];
      const now = new Date();
      await stores.tickets.save(expired, userId, later(-7200, now), later(-3600, now));
      await stores.tickets.save(current, userId, now, later(3600, now));
      const counts = await stores.maintenance.purgeExpired({ now, pauseMs: 0 });
      expect(counts.tickets).toBeGreaterThanOrEqual(1);
      expect(await stores.tickets.findWithUser(expired)).toBeNull();
      expect(await stores.tickets.findWithUser(current)).not.toBeNull();
    });

    it("purges in rounds of a batch, telling the listener the rows removed so far after each round", async () => {
      const stores = backend.stores();
      const { id: userId } = await newPerson(backend, "drained");
      const now = new Date();
      for (let index = 0; index < 5; index++)
        await stores.tickets.save(freshValue("drained"), userId, later(-7200, now), later(-3600, now));
      const told: number[] = [];
      const onProgress = (done: number) => void told.push(done);
      const counts = await stores.maintenance.purgeExpired({ now, batch: 2, pauseMs: 0, onProgress });
      expect(counts.tickets).toBeGreaterThanOrEqual(5);
      // Five tickets in batches of two: each of the first three rounds removes some; a last one may find none.
      expect(told.length).toBeGreaterThanOrEqual(3);
      expect([told[1] > told[0], told[2] > told[1]]).toEqual([true, true]);
      expect(told.every((done, index) => index === 0 || done >= told[index - 1])).toBe(true);
      expect(told.at(-1)).toBe(Object.values(counts).reduce((sum, count) => sum + count, 0));
    });

    it("purges audit events older than the retention it is given, and none without one", async () => {
      const stores = backend.stores();
      const companyId = freshValue("retained");
      await stores.audit.record({ type: "company.updated", companyId });
      const recorded = async () => (await stores.audit.page({ companyId }, { take: 5 })).length;
      const now = new Date();
      expect((await stores.maintenance.purgeExpired({ now, pauseMs: 0 })).auditEvents).toBe(0);
      expect((await stores.maintenance.purgeExpired({ now, auditRetentionDays: 1, pauseMs: 0 })).auditEvents).toBe(0);
      expect(await recorded()).toBe(1);
      // Two days on, a retention of one day no longer covers it (nor anything recorded before it).
      const counts = await stores.maintenance.purgeExpired({
        now: later(2 * 24 * 3600, now),
        auditRetentionDays: 1,
        batch: 2,
        pauseMs: 0,
      });
      expect(counts.auditEvents).toBeGreaterThanOrEqual(1);
      expect(await recorded()).toBe(0);
    });

    it("seals queued mail anew under the newest key, and leaves what is sealed under it", async () => {
      const stores = backend.stores();
      const recipient = `${freshValue("sealed")}@contract.example`;
      const older = "contract-older-secret-key-0123456789abcdef";
      const mail = { kind: "password_changed", recipient, language: "en", subject: "Changed" };
      await stores.outbox.queue({ ...mail, sealedBody: seal("{}", older, "outbox") }, NOW);
      acceptOlderSecretKeys(backend.secretKey, [older]);
      try {
        const counts = await stores.maintenance.resealSecrets(backend.secretKey);
        expect(counts.queuedMail.resealed).toBe(1);
        expect(counts.signingKeys.resealed).toBe(0);
        expect((await stores.maintenance.resealSecrets(backend.secretKey)).queuedMail.resealed).toBe(0);
      } finally {
        acceptOlderSecretKeys(backend.secretKey, []);
      }
    });
  });
}
