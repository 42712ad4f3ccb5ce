/** Loads the catalog part of the demo data set; what already exists is left as it is (idempotent). */
import { demoCatalogs, demoRegistrations, demoSuppliers, demoWebServices } from "@/prisma/demo-catalogs";
import type { Db } from "@/lib/db/prisma";
import { storeCatalogWithRevisions } from "@/lib/store/catalog-revision-store";
import { findCatalog, raiseCatalogListVersion } from "@/lib/store/catalog-store";
import { findCompany, storeCompany, storeSupplierDetails } from "@/lib/store/company-store";
import {
  hasRegistration,
  hasSupplierWebServices,
  storeRegistration,
  storeSupplierWebServices,
} from "@/lib/store/registration-store";

const dateOrNull = (text: string | undefined) => (text ? new Date(text) : null);

export async function loadDemoCatalogs(db: Db): Promise<string[]> {
  const created: string[] = [];
  for (const { id, name, ...details } of demoSuppliers) {
    const company = await findCompany(db, id);
    if (!company) {
      await storeCompany(db, { id, name: name ?? id, kind: "supplier", ...details });
      created.push(`company ${name}`);
    } else if (company.supplierId === null) {
      await storeSupplierDetails(db, id, details);
    }
  }
  for (const { revisions, ...catalog } of demoCatalogs) {
    if (await findCatalog(db, catalog.supplierCompanyId, { catalogId: catalog.catalogId })) continue;
    await storeCatalogWithRevisions(
      db,
      catalog,
      revisions.map(({ articles, ...revision }) => ({
        ...revision,
        publishedAt: new Date(revision.publishedAt),
        validFrom: new Date(revision.validFrom),
        validUntil: dateOrNull(revision.validUntil),
        articles: articles.map((article) => ({
          ...article,
          startDate: dateOrNull(article.startDate),
          endDate: dateOrNull(article.endDate),
        })),
      })),
    );
    created.push(`catalog ${catalog.supplierCompanyId}/${catalog.catalogId}`);
  }
  if (!(await hasSupplierWebServices(db))) {
    await storeSupplierWebServices(db, demoWebServices);
    created.push("supplier web services");
  }
  for (const registration of demoRegistrations) {
    const { opticianCompanyId, supplierCompanyId } = registration;
    // Any registration of the pair, also a closed one: what a demo user changed stays as they left it.
    if (await hasRegistration(db, { opticianCompanyId, supplierCompanyId }, false)) continue;
    await storeRegistration(db, { ...registration, changedBy: "demo-data" });
    created.push(`${registration.status === "active" ? "customer" : "request"} ${registration.clientId}`);
  }
  // Suppliers and released revisions are what the published catalog list is made of.
  if (created.length > 0) await raiseCatalogListVersion(db);
  return created;
}
