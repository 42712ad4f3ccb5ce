/** What request handlers work with: the configuration of this process and the stores of its database. */
import { getConfig, type Config } from "@/lib/config";
import { storesFor, type Stores } from "@/lib/store/stores";

export interface ServiceContext {
  config: Config;
  stores: Stores;
}

/** What code that reads or writes data needs of the context. */
export type DataAccess = Pick<ServiceContext, "stores">;

/** The context over given stores and configuration (the CLI, tests). */
export const serviceContextFor = <C extends Config>(stores: Stores, config: C) => ({ config, stores });

export function getServiceContext(): ServiceContext {
  const config = getConfig();
  return serviceContextFor(storesFor(config.database), config);
}
