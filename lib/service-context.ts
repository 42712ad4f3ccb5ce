/** What request handlers work with: the database and the configuration of this process. */
import { getConfig, type Config } from "@/lib/config";
import { getDb, type Db } from "@/lib/db";

export interface ServiceContext {
  db: Db;
  config: Config;
}

export function getServiceContext(): ServiceContext {
  return { db: getDb(), config: getConfig() };
}
