/** Bench data for the catalog services: a 200,000-article revision and 500 suppliers with one catalog each. */
import { randomUUID } from "node:crypto";
import type { Db } from "@/lib/db/prisma";

export const LARGE_REVISION = 90;

export async function addLargeRevision(db: Db, articleCount: number): Promise<void> {
  const catalog = await db.catalog.findFirstOrThrow({ where: { resourceKey: "DLAG-DE" } });
  const revision = await db.catalogRevision.create({
    data: {
      catalogId: catalog.id,
      number: LARGE_REVISION,
      comment: "bench",
      publishedAt: new Date(),
      validFrom: new Date(),
      released: true,
    },
  });
  for (let offset = 0; offset < articleCount; offset += 5000) {
    const size = Math.min(5000, articleCount - offset);
    await db.catalogArticle.createMany({
      data: Array.from({ length: size }, (_, index) => ({
        id: randomUUID(),
        revisionId: revision.id,
        articleNumber: `B-${offset + index}`,
        genericName: `Einstärkenglas 1.${(offset + index) % 10} Typ ${offset + index}`,
        customerGroup: 0,
        purchasePriceCents: 1000 + ((offset + index) % 9000),
        retailPriceCents: 4900,
      })),
    });
  }
}

export async function addSuppliers(db: Db, count: number): Promise<void> {
  for (let index = 0; index < count; index++) {
    const company = await db.company.create({
      data: {
        name: `Supplier ${index}`,
        kind: "supplier",
        supplierId: `S${index}`,
        name1: `Supplier ${index}`,
        name2: "GmbH",
      },
    });
    const catalog = await db.catalog.create({
      data: {
        supplierCompanyId: company.id,
        catalogId: "catalog.xml",
        resourceKey: `S${index}-DE`,
        name: `Katalog ${index}`,
        language: "de",
        formatVersion: "2.1",
        validCountries: '["DE"]',
        productGroups: '["Brillengläser"]',
      },
    });
    await db.catalogRevision.create({
      data: { catalogId: catalog.id, number: 1, publishedAt: new Date(), validFrom: new Date(), released: true },
    });
  }
}
