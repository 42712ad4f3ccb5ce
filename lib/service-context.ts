/**
 * What request handlers work with: the configuration of this process and the stores of its database. `db` is the
 * database client itself, for the code not yet moved onto a store interface.
 */
import { getConfig, type Config } from "@/lib/config";
import { getDb, type Db } from "@/lib/db";
import { prismaStores, type Stores } from "@/lib/store/stores";

export interface ServiceContext {
  db: Db;
  config: Config;
  stores: Stores;
}

/** What code that reads or writes data needs of the context. */
export type DataAccess = Pick<ServiceContext, "db" | "stores">;

/** The context over a given database client and configuration (the CLI, tests). */
export const serviceContextFor = <C extends Config>(db: Db, config: C) => ({ db, config, stores: prismaStores(db) });

export function getServiceContext(): ServiceContext {
  return serviceContextFor(getDb(), getConfig());
}
