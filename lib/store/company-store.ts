/**
 * Companies (`companies`): opticians, suppliers and the operator. Suppliers are also found by their supplier
 * identifier (the supplierID of catalog files, the catalog lists and the platform API). Every read goes to the
 * database: companies change rarely, but the reads that need them are few and not on a per-token path.
 */
import type { Db } from "@/lib/db/prisma";
import type { Company } from "@/lib/db/rows";

/** A supplier's identifier, name parts and portal page, as the catalog list shows them. */
export type SupplierDetails = Partial<Pick<Company, "supplierId" | "name1" | "name2" | "portalUrl">>;

export type NewCompany = Pick<Company, "id" | "name" | "kind"> & SupplierDetails;

export function findCompany(db: Pick<Db, "company">, companyId: string): Promise<Company | null> {
  return db.company.findUnique({ where: { id: companyId } });
}

/** The supplier company with this supplier identifier. */
export function findSupplier(
  db: Pick<Db, "company">,
  supplierId: string,
): Promise<{ id: string; name: string } | null> {
  return db.company.findFirst({ where: { supplierId, kind: "supplier" }, select: { id: true, name: true } });
}

export async function storeCompany(db: Db, company: NewCompany): Promise<void> {
  await db.company.create({ data: company });
}

export async function storeSupplierDetails(db: Db, companyId: string, details: SupplierDetails): Promise<void> {
  await db.company.update({ where: { id: companyId }, data: details });
}

/** Those of these companies that exist, with their kind. */
export function findCompanyKinds(
  db: Pick<Db, "company">,
  companyIds: string[],
): Promise<{ id: string; kind: string }[]> {
  return db.company.findMany({ where: { id: { in: companyIds } }, select: { id: true, kind: true } });
}

export async function companyExists(db: Pick<Db, "company">, companyId: string): Promise<boolean> {
  return (await db.company.findUnique({ where: { id: companyId }, select: { id: true } })) !== null;
}
