/** The database of the running service, as configured by DATABASE_URL. */
import { getConfig } from "@/lib/config";
import { getPrismaClient, type Db } from "@/lib/db/prisma";

export type { Db };

export function getDb(): Db {
  return getPrismaClient(getConfig().database);
}
