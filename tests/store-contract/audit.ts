/**
 * The audit store's contract: events come back newest first, filtered by type, client, user and time (list); with the
 * company they concern and the management client that acted as columns; as pages and export slices by actor,
 * company, kind and time in the keyset order (occurred_at, id), older and newer; purged before a date in batches.
 */
import { describe, expect, it } from "vitest";
import { actingAsClient } from "@/lib/store/audit-attribution";
import type { AuditEventFilter, AuditPosition, RecordedAuditEvent } from "@/lib/store/models/audit-event";
import { freshValue, type StoreBackend } from "./store-backend";

const pause = () => new Promise((resolve) => setTimeout(resolve, 3));

/** Every event of the export, slice after slice of `take`. */
async function exported(backend: StoreBackend, filter: AuditEventFilter, take: number) {
  const all: RecordedAuditEvent[] = [];
  let olderThan: AuditPosition | undefined;
  for (let slices = 0; slices < 100; slices++) {
    const slice = await backend.stores().audit.exportSlice(filter, { take, olderThan });
    for await (const event of slice.events) all.push(event);
    if (!slice.next) return all;
    olderThan = slice.next;
  }
  throw new Error("the export did not end");
}

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

    it("records the company an event concerns and the management client that acted, out of the details", async () => {
      const audit = backend.stores().audit;
      const companyId = freshValue("audited-company");
      const manager = freshValue("manager");
      await audit.record({ type: "company.updated", details: { companyId, companyKind: "supplier" } });
      await pause();
      await actingAsClient(manager, () =>
        audit.record({ type: "user.invited", companyId, details: { username: "kim@contract.example" } }),
      );
      await audit.record({ type: "company.added", details: { companyId: 42 } });

      const events = await audit.page({ companyId }, { take: 10 });
      expect(events.map((event) => [event.type, event.companyId, event.byClientId])).toEqual([
        ["user.invited", companyId, manager],
        ["company.updated", companyId, null],
      ]);
      expect(JSON.parse(events[0].details)).toEqual({ username: "kim@contract.example" });
      expect((await audit.page({ actor: manager }, { take: 10 })).map((event) => event.type)).toEqual(["user.invited"]);
    });

    it("pages by actor, company, kind and time, newest first by time then id, older and newer", async () => {
      const audit = backend.stores().audit;
      const { clientId, userId } = backend.subjects();
      const companyId = freshValue("paged-company");
      const started = new Date();
      const types = ["user.invited", "user.joined", "client.updated", "user.deactivated", "company.updated"] as const;
      for (const [index, type] of types.entries()) {
        // Some share a millisecond: the id orders those.
        if (index % 2 === 0) await pause();
        await audit.record({
          type,
          companyId,
          userId: index === 1 ? userId : undefined,
          clientId,
          details: { revision: index },
        });
      }
      const all = await audit.page({ companyId }, { take: 10 });
      const order = [...all].sort(
        (a, b) => b.occurredAt.getTime() - a.occurredAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
      );
      expect(all.map((event) => event.id)).toEqual(order.map((event) => event.id));
      expect(all.map((event) => JSON.parse(event.details).revision).sort()).toEqual([0, 1, 2, 3, 4]);

      const paged: string[] = [];
      let olderThan: AuditPosition | undefined;
      do {
        const page = await audit.page({ companyId }, { take: 2, olderThan });
        paged.push(...page.map((event) => event.id));
        olderThan = page.length === 2 ? page[1] : undefined;
      } while (olderThan);
      expect(paged).toEqual(all.map((event) => event.id));
      // Back from the oldest: the two just newer, still newest first.
      expect((await audit.page({ companyId }, { take: 2, newerThan: all[4] })).map((event) => event.id)).toEqual([
        all[2].id,
        all[3].id,
      ]);

      const kinds = (filter: AuditEventFilter) =>
        audit.page({ companyId, ...filter }, { take: 10 }).then((page) => page.map((event) => event.type).sort());
      expect(await kinds({ kind: "user." })).toEqual(["user.deactivated", "user.invited", "user.joined"]);
      expect(await kinds({ kind: "user.joined" })).toEqual(["user.joined"]);
      expect(await kinds({ kind: "company." })).toEqual(["company.updated"]);
      expect(await kinds({ actor: userId })).toEqual(["user.joined"]);
      expect(await kinds({ actor: clientId })).toHaveLength(5);
      expect(await kinds({ from: started, to: new Date(Date.now() + 1000) })).toHaveLength(5);
      expect(await kinds({ to: started })).toEqual([]);
      expect(await kinds({ from: new Date(Date.now() + 1000) })).toEqual([]);
    });

    it("exports in slices that know whether more follow, each event once, in the pages' order", async () => {
      const audit = backend.stores().audit;
      const companyId = freshValue("exported-company");
      for (let index = 0; index < 7; index++) {
        if (index % 3 === 0) await pause();
        await audit.record({ type: "user.invited", companyId, details: { revision: index } });
      }
      const page = await audit.page({ companyId }, { take: 10 });
      for (const take of [1, 3, 7, 50]) {
        const events = await exported(backend, { companyId }, take);
        expect(events.map((event) => event.id)).toEqual(page.map((event) => event.id));
      }
      const exact = await audit.exportSlice({ companyId }, { take: 7 });
      expect(exact.next).toBeNull();
      const first = await audit.exportSlice({ companyId }, { take: 6 });
      expect(first.next).toEqual({ occurredAt: page[5].occurredAt, id: page[5].id });
    });

    it("purges the events recorded before a date, oldest first, at most a batch at a time", async () => {
      const audit = backend.stores().audit;
      const companyId = freshValue("purged-company");
      await audit.record({ type: "user.invited", companyId, details: { revision: 1 } });
      await pause();
      await audit.record({ type: "user.invited", companyId, details: { revision: 2 } });
      await pause();
      const cutoff = new Date();
      await pause();
      await audit.record({ type: "user.joined", companyId });

      expect(await audit.purgeBefore(cutoff, 1)).toBe(1);
      let deleted = 0;
      for (let round = 0; round < 1000; round++) {
        const count = await audit.purgeBefore(cutoff, 500);
        deleted += count;
        if (count < 500) break;
      }
      expect(deleted).toBeGreaterThanOrEqual(1);
      expect(await audit.purgeBefore(cutoff, 500)).toBe(0);
      expect((await audit.page({ companyId }, { take: 10 })).map((event) => event.type)).toEqual(["user.joined"]);
    });
  });
}
