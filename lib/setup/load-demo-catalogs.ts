/** Loads the catalog part of the demo data set; what already exists is left as it is (idempotent). */
import { demoCatalogs, demoRegistrations, demoSuppliers, demoWebServices } from "@/prisma/demo-catalogs";
import type { Stores } from "@/lib/store/stores";

const dateOrNull = (text: string | undefined) => (text ? new Date(text) : null);

export async function loadDemoCatalogs(stores: Stores): Promise<string[]> {
  const created: string[] = [];
  for (const { id, name, ...details } of demoSuppliers) {
    const company = await stores.companies.find(id);
    if (!company) {
      await stores.companies.save({ id, name: name ?? id, kind: "supplier", ...details });
      created.push(`company ${name}`);
    } else if (company.supplierId === null) {
      await stores.companies.saveSupplierDetails(id, details);
    }
  }
  for (const { revisions, ...catalog } of demoCatalogs) {
    if (await stores.catalogs.find(catalog.supplierCompanyId, { catalogId: catalog.catalogId })) continue;
    await stores.catalogs.saveWithRevisions(
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
  if (!(await stores.registrations.hasSupplierWebServices())) {
    await stores.registrations.saveSupplierWebServices(demoWebServices);
    created.push("supplier web services");
  }
  for (const registration of demoRegistrations) {
    const { opticianCompanyId, supplierCompanyId } = registration;
    // Any registration of the pair, also a closed one: what a demo user changed stays as they left it.
    if (await stores.registrations.has({ opticianCompanyId, supplierCompanyId }, false)) continue;
    await stores.registrations.save({ ...registration, changedBy: "demo-data" });
    created.push(`${registration.status === "active" ? "customer" : "request"} ${registration.clientId}`);
  }
  // Suppliers and released revisions are what the published catalog list is made of.
  if (created.length > 0) await stores.catalogs.raiseListVersion();
  return created;
}
