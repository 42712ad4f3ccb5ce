/**
 * What the demo data set writes besides what the service itself does: open registrations with their subscriptions and
 * white-label names, and the suppliers' web services.
 */
import type { Db } from "@/lib/db/prisma";
import type { SupplierWebService } from "@/lib/store/models/user";

/** A registration as the demo data set describes it: its catalogs by identifier, its customers' article names. */
export interface NewRegistration {
  opticianCompanyId: string;
  supplierCompanyId: string;
  clientId: string;
  status: string;
  customerGroups: number[];
  catalogIds: string[];
  whiteLabelNames: { articleNumber: string; name: string }[];
  changedBy: string;
}

/** Stores an open registration with its history entry, subscriptions and white-label names, in one transaction. */
export async function storeRegistration(db: Db, registration: NewRegistration): Promise<void> {
  const { opticianCompanyId, supplierCompanyId, clientId, status, changedBy } = registration;
  await db.$transaction(async (tx) => {
    const row = await tx.supplierRegistration.create({
      data: {
        opticianCompanyId,
        supplierCompanyId,
        clientId,
        status,
        open: true,
        customerGroups: JSON.stringify(registration.customerGroups),
        history: { create: { status, changedBy } },
      },
    });
    const catalogs = await tx.catalog.findMany({
      where: { supplierCompanyId, catalogId: { in: registration.catalogIds } },
    });
    for (const catalog of catalogs)
      await tx.catalogSubscription.create({ data: { registrationId: row.id, catalogId: catalog.id } });
    for (const name of registration.whiteLabelNames)
      await tx.whiteLabelName.create({ data: { registrationId: row.id, ...name } });
  });
}

export async function hasSupplierWebServices(db: Db): Promise<boolean> {
  return (await db.supplierWebService.count()) > 0;
}

export async function storeSupplierWebServices(db: Db, services: Omit<SupplierWebService, "id">[]): Promise<void> {
  await db.supplierWebService.createMany({
    data: services.map((service) => ({ ...service, id: crypto.randomUUID() })),
  });
}
