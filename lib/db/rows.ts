/** The rows of OptiGate's tables as Prisma reads them; the same for both providers (one models file). */
export type { Catalog, Client, RefreshToken, SupplierRegistration } from "@/lib/db/generated/sqlite/client";
