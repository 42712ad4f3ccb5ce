/** Loads the catalog part of the demo data set; what already exists is left as it is (idempotent). */
import { demoCatalogs, demoCustomer, demoSuppliers, demoWebServices } from "@/prisma/demo-catalogs";
import type { Db } from "@/lib/db/prisma";
import { raiseChangeCounter } from "@/lib/db/statements/change-counters";

export async function loadDemoCatalogs(db: Db): Promise<string[]> {
  const created: string[] = [];
  for (const { id, name, ...details } of demoSuppliers) {
    const company = await db.company.findUnique({ where: { id } });
    if (!company) {
      await db.company.create({ data: { id, name: name ?? id, kind: "supplier", ...details } });
      created.push(`company ${name}`);
    } else if (company.supplierId === null) {
      await db.company.update({ where: { id }, data: details });
    }
  }
  for (const { revisions, validCountries, productGroups, ...catalog } of demoCatalogs) {
    const key = {
      supplierCompanyId_catalogId: { supplierCompanyId: catalog.supplierCompanyId, catalogId: catalog.catalogId },
    };
    if (await db.catalog.findUnique({ where: key, select: { id: true } })) continue;
    await db.$transaction(async (tx) => {
      const row = await tx.catalog.create({
        data: {
          ...catalog,
          validCountries: JSON.stringify(validCountries),
          productGroups: JSON.stringify(productGroups),
        },
      });
      for (const { articles, ...revision } of revisions) {
        const revisionRow = await tx.catalogRevision.create({
          data: {
            ...revision,
            catalogId: row.id,
            publishedAt: new Date(revision.publishedAt),
            validFrom: new Date(revision.validFrom),
            validUntil: revision.validUntil ? new Date(revision.validUntil) : null,
          },
        });
        await tx.catalogArticle.createMany({
          data: articles.map((article) => ({
            ...article,
            id: crypto.randomUUID(),
            revisionId: revisionRow.id,
            startDate: article.startDate ? new Date(article.startDate) : null,
            endDate: article.endDate ? new Date(article.endDate) : null,
          })),
        });
      }
    });
    created.push(`catalog ${catalog.supplierCompanyId}/${catalog.catalogId}`);
  }
  if ((await db.supplierWebService.count()) === 0) {
    await db.supplierWebService.createMany({
      data: demoWebServices.map((service) => ({ ...service, id: crypto.randomUUID() })),
    });
    created.push("supplier web services");
  }
  const pair = { opticianCompanyId: demoCustomer.customerCompanyId, supplierCompanyId: demoCustomer.supplierCompanyId };
  if (!(await db.supplierRegistration.findFirst({ where: pair }))) {
    await db.$transaction(async (tx) => {
      const registration = await tx.supplierRegistration.create({
        data: {
          ...pair,
          clientId: demoCustomer.clientId,
          status: "active",
          open: true,
          customerGroups: JSON.stringify(demoCustomer.customerGroups),
          history: { create: { status: "active", changedBy: "demo-data" } },
        },
      });
      const catalogs = await tx.catalog.findMany({
        where: { supplierCompanyId: pair.supplierCompanyId, catalogId: { in: demoCustomer.subscribedCatalogIds } },
      });
      for (const catalog of catalogs)
        await tx.catalogSubscription.create({ data: { registrationId: registration.id, catalogId: catalog.id } });
      for (const name of demoCustomer.whiteLabelNames)
        await tx.whiteLabelName.create({ data: { registrationId: registration.id, ...name } });
    });
    created.push(`customer ${demoCustomer.clientId}`);
  }
  // Suppliers and released revisions are what the published catalog list is made of.
  if (created.length > 0) await db.$transaction((tx) => raiseChangeCounter(tx, "catalog_list"));
  return created;
}
