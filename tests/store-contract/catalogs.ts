/**
 * The catalog store's contract: an import starts an incomplete revision (and the catalog), writes its articles,
 * completes and releases it once, raising the published list's version; articles come in pages by customer group.
 */
import { describe, expect, it } from "vitest";
import type { StoreBackend } from "./store-backend";
import { freshValue } from "./store-backend";

const DESCRIPTION = {
  name: "Contract Lenses",
  language: "de",
  format: "SPECTARIS",
  formatVersion: "2.0",
  validCountries: ["DE", "AT"],
  productGroups: ["lenses"],
};

/** A supplier company of its own. */
export async function newSupplier(backend: StoreBackend): Promise<{ id: string; supplierId: string }> {
  const id = freshValue("supplier");
  const supplierId = freshValue("SUP");
  await backend
    .stores()
    .companies.insert(id, { name: "Contract Lenses", kind: "supplier", supplierId, webServices: [] });
  return { id, supplierId };
}

const header = (supplierId: string, catalogId: string) => ({
  supplierId,
  catalogId,
  resourceKey: `${catalogId}-key`,
  description: DESCRIPTION,
  comment: "contract",
  validFrom: new Date("2026-01-01T00:00:00.000Z"),
  validUntil: null,
  line: 1,
});

const article = (revisionId: string, articleNumber: string, customerGroup: number) => ({
  id: crypto.randomUUID(),
  revisionId,
  articleNumber,
  genericName: `Lens ${articleNumber}`,
  customerGroup,
  purchasePriceCents: 1000,
  retailPriceCents: 2000,
  startDate: new Date("2026-02-01T00:00:00.000Z"),
  endDate: null,
  whiteLabel: false,
});

/** A supplier's catalog with one released revision; the catalog's row id and identifier. */
export async function releasedCatalog(backend: StoreBackend, supplier: { id: string; supplierId: string }) {
  const catalogs = backend.stores().catalogs;
  const catalogId = freshValue("CAT");
  const started = (await catalogs.startRevision(supplier.id, null, header(supplier.supplierId, catalogId)))!;
  await catalogs.completeRevision(started.revisionId);
  const revision = (await catalogs.findRevision(started.catalogId, started.number))!;
  await catalogs.markReleased(revision, { type: "catalog.released", details: { catalogId } });
  return { key: started.catalogId, catalogId, revisionId: started.revisionId };
}

export function catalogContract(backend: StoreBackend): void {
  describe("catalogs", () => {
    it("imports a revision, releases it once with the catalog's description, and publishes the catalog", async () => {
      const supplier = await newSupplier(backend);
      const catalogs = backend.stores().catalogs;
      const catalogId = freshValue("CAT");
      const started = (await catalogs.startRevision(supplier.id, null, header(supplier.supplierId, catalogId)))!;
      expect(started).toMatchObject({ createdCatalog: true, number: 1 });
      expect(await catalogs.find(supplier.id, { catalogId })).toMatchObject({ id: started.catalogId, ...DESCRIPTION });
      await catalogs.insertArticles([article(started.revisionId, "A-1", 0), article(started.revisionId, "A-2", 5)]);
      await catalogs.completeRevision(started.revisionId);
      expect(await catalogs.isReleasedRevision(started.catalogId, 1)).toBe(false);
      const revision = (await catalogs.findRevision(started.catalogId, 1))!;
      expect(revision).toMatchObject({ complete: true, released: false, catalogDescription: DESCRIPTION });
      const version = await catalogs.readListVersion();
      expect(await catalogs.markReleased(revision, { type: "catalog.released" })).toBe(true);
      expect(await catalogs.markReleased(revision, { type: "catalog.released" })).toBe(false);
      expect(await catalogs.readListVersion()).toBeGreaterThan(version);
      expect(await catalogs.isReleasedRevision(started.catalogId, 1)).toBe(true);
      const released = await catalogs.findReleased();
      expect(released.catalogs.find((entry) => entry.id === started.catalogId)).toMatchObject({
        catalogId,
        validCountries: ["DE", "AT"],
        supplier: { id: supplier.id, supplierId: supplier.supplierId, webServices: [] },
      });
      expect(released.revisions.some((entry) => entry.catalogId === started.catalogId && entry.number === 1)).toBe(
        true,
      );
      expect(await catalogs.findPublishedIds(supplier.id, [catalogId, "NONE"])).toEqual(
        new Map([[catalogId, started.catalogId]]),
      );
      expect(await catalogs.findWithCompleteRevisions(supplier.supplierId, catalogId)).toMatchObject({
        revisions: [{ number: 1, released: true, comment: "contract" }],
      });
      expect(await catalogs.listOfSupplier(supplier.id)).toEqual([
        expect.objectContaining({ catalogId, revisions: [expect.objectContaining({ number: 1, articles: 2 })] }),
      ]);
    });

    it("reads a revision's articles in pages by customer group, after a position", async () => {
      const supplier = await newSupplier(backend);
      const { revisionId } = await releasedCatalog(backend, supplier);
      const catalogs = backend.stores().catalogs;
      await catalogs.insertArticles([
        article(revisionId, "B", 0),
        article(revisionId, "A", 5),
        article(revisionId, "A", 0),
      ]);
      const all = await catalogs.readArticlePage({ revisionId, groups: "all" });
      expect(all.map((row) => [row.articleNumber, row.customerGroup])).toEqual([
        ["A", 0],
        ["A", 5],
        ["B", 0],
      ]);
      expect(all[0]).toMatchObject({
        genericName: "Lens A",
        purchasePriceCents: 1000,
        startDate: "2026-02-01",
        endDate: null,
      });
      expect(Boolean(all[0].whiteLabel)).toBe(false);
      const standard = await catalogs.readArticlePage(
        { revisionId, groups: [0] },
        { articleNumber: "A", customerGroup: 0 },
      );
      expect(standard.map((row) => row.articleNumber)).toEqual(["B"]);
      expect(await catalogs.readArticlePage({ revisionId, groups: "all" }, undefined, 1)).toHaveLength(1);
    });

    it("numbers a catalog's revisions, and discards an import with the catalog it created", async () => {
      const supplier = await newSupplier(backend);
      const catalogs = backend.stores().catalogs;
      const released = await releasedCatalog(backend, supplier);
      const existing = await catalogs.find(supplier.id, { catalogId: released.catalogId });
      const second = (await catalogs.startRevision(
        supplier.id,
        existing,
        header(supplier.supplierId, released.catalogId),
      ))!;
      expect(second).toMatchObject({ createdCatalog: false, number: 2 });
      await catalogs.discardRevision(second);
      expect(await catalogs.findRevision(released.key, 2)).toBeNull();
      const fresh = (await catalogs.startRevision(supplier.id, null, header(supplier.supplierId, freshValue("NEW"))))!;
      await catalogs.discardRevision(fresh);
      expect(await catalogs.find(supplier.id, { resourceKey: `${fresh.catalogId}` })).toBeNull();
      expect((await catalogs.listOfSupplier(supplier.id)).map((catalog) => catalog.catalogId)).toEqual([
        released.catalogId,
      ]);
      const taken = await catalogs.startRevision(supplier.id, null, header(supplier.supplierId, released.catalogId));
      expect(taken).toBeNull();
    });
  });
}
