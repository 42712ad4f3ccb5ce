/** Activity per hour in memory, with the database store's sums (activity-store.ts). */
import { inGroup, type ActivityQuery, type ActivityStore } from "@/lib/store/activity-store";
import { hourOf, type ActivityKind } from "@/lib/store/models/activity";
import type { MemoryTables } from "@/lib/store/memory/memory-tables";

const rowKey = (hour: Date, companyId: string, kind: string) => `${hour.toISOString()}|${companyId}|${kind}`;

export function memoryActivityStore(tables: MemoryTables): ActivityStore {
  const rows = tables.activityCounts;
  const selected = ({ since, kinds, companyId }: ActivityQuery) =>
    [...rows.values()].filter(
      (row) =>
        row.hour >= since && inGroup(row.kind, kinds) && (companyId === undefined || row.companyId === companyId),
    );
  const summed = <K extends string>(query: ActivityQuery, keyOf: (row: { hour: Date; companyId: string }) => K) => {
    const sums = new Map<string, { key: K; kind: ActivityKind; count: number }>();
    for (const row of selected(query)) {
      const key = keyOf(row);
      const entry = sums.get(`${key}|${row.kind}`) ?? { key, kind: row.kind, count: 0 };
      entry.count += row.count;
      sums.set(`${key}|${row.kind}`, entry);
    }
    return [...sums.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.kind < b.kind ? -1 : 1));
  };
  return {
    async add(increments) {
      for (const { at, companyId, kind, count } of increments) {
        const hour = hourOf(at);
        const key = rowKey(hour, companyId, kind);
        const row = rows.get(key) ?? { hour, companyId, kind, count: 0 };
        row.count += count;
        rows.set(key, row);
      }
    },
    async hourly(query) {
      return summed(query, (row) => row.hour.toISOString()).map(({ key, kind, count }) => ({
        hour: new Date(key),
        kind,
        count,
      }));
    },
    async byCompany(query) {
      return summed(query, (row) => row.companyId).map(({ key, kind, count }) => ({ companyId: key, kind, count }));
    },
    async purgeBefore(before) {
      let purged = 0;
      for (const [key, row] of rows)
        if (row.hour < before) {
          rows.delete(key);
          purged++;
        }
      return purged;
    },
  };
}
