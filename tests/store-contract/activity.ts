/**
 * The activity store's contract: counts add up per hour, kind and company however they arrive, sums come per hour or
 * per company for a period and a group of kinds, and a sign-in's audit event counts in its company's hour.
 */
import { describe, expect, it } from "vitest";
import { freshValue, newPerson, type StoreBackend } from "./store-backend";

/** A period of its own per test: the stores are shared, and every test reads sums. */
let periods = 0;
const period = () => new Date(Date.UTC(2020 + ++periods, 0, 1));
const at = (start: Date, hours: number, minutes = 0) =>
  new Date(start.getTime() + hours * 3_600_000 + minutes * 60_000);

export function activityContract(backend: StoreBackend): void {
  describe("activity", () => {
    it("adds counts within their hour, per kind and company, and sums them per hour", async () => {
      const { activity } = backend.stores();
      const start = period();
      const [a, b] = [freshValue("company"), freshValue("company")];
      await activity.add([
        { at: at(start, 0, 5), companyId: a, kind: "token.authorization_code", count: 2 },
        { at: at(start, 0, 55), companyId: a, kind: "token.authorization_code", count: 3 },
        { at: at(start, 0, 30), companyId: b, kind: "token.authorization_code", count: 1 },
        { at: at(start, 1, 0), companyId: a, kind: "token.refresh_token", count: 4 },
        { at: at(start, 1, 0), companyId: a, kind: "catalog.download", count: 9 },
      ]);
      expect(await activity.hourly({ since: start, kinds: "token" })).toEqual([
        { hour: start, kind: "token.authorization_code", count: 6 },
        { hour: at(start, 1), kind: "token.refresh_token", count: 4 },
      ]);
      expect(await activity.hourly({ since: at(start, 1), kinds: "token", companyId: b })).toEqual([]);
      expect(await activity.hourly({ since: start, kinds: "token", companyId: b })).toEqual([
        { hour: start, kind: "token.authorization_code", count: 1 },
      ]);
    });

    it("sums a period per company, for one group of kinds", async () => {
      const { activity } = backend.stores();
      const start = period();
      const [a, b] = [freshValue("supplier"), freshValue("supplier")];
      await activity.add([
        { at: at(start, 2), companyId: a, kind: "catalog.download", count: 5 },
        { at: at(start, 30), companyId: a, kind: "catalog.download", count: 1 },
        { at: at(start, 3), companyId: b, kind: "catalog.download", count: 2 },
        { at: at(start, 3), companyId: b, kind: "token.client_credentials", count: 7 },
      ]);
      const rows = await activity.byCompany({ since: start, kinds: "catalog.download" });
      expect(rows.filter((row) => [a, b].includes(row.companyId))).toEqual(
        [
          { companyId: a, kind: "catalog.download", count: 6 },
          { companyId: b, kind: "catalog.download", count: 2 },
        ].sort((x, y) => (x.companyId < y.companyId ? -1 : 1)),
      );
    });

    it("counts a sign-in's audit event in its user's company, and a lock-out with its failure", async () => {
      const { activity, audit } = backend.stores();
      const { companyId } = backend.subjects();
      const person = await newPerson(backend, "activity");
      const since = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
      const before = await activity.hourly({ since, kinds: "sign_in", companyId });
      const sum = (rows: typeof before, kind: string) =>
        rows.filter((row) => row.kind === kind).reduce((total, row) => total + row.count, 0);
      await audit.record({ type: "sign_in.succeeded", userId: person.id });
      await audit.record({ type: "sign_in.failed", userId: person.id, companyId, details: { locked: true } });
      await audit.record({ type: "consent.granted", userId: person.id, companyId });
      const after = await activity.hourly({ since, kinds: "sign_in", companyId });
      expect(sum(after, "sign_in.succeeded") - sum(before, "sign_in.succeeded")).toBe(1);
      expect(sum(after, "sign_in.failed") - sum(before, "sign_in.failed")).toBe(1);
      expect(sum(after, "sign_in.locked") - sum(before, "sign_in.locked")).toBe(1);
    });

    it("forgets the hours before a time", async () => {
      const { activity } = backend.stores();
      const start = period();
      const company = freshValue("company");
      await activity.add([
        { at: at(start, 0), companyId: company, kind: "catalog.download", count: 1 },
        { at: at(start, 5), companyId: company, kind: "catalog.download", count: 1 },
      ]);
      expect(await activity.purgeBefore(at(start, 1))).toBeGreaterThanOrEqual(1);
      expect(await activity.hourly({ since: start, kinds: "catalog.download", companyId: company })).toEqual([
        { hour: at(start, 5), kind: "catalog.download", count: 1 },
      ]);
    });
  });
}
