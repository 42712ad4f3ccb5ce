/** What request handlers work with: the configuration of this process and the stores of its database. */
import { getConfig, type Config } from "@/lib/config";
import { storesFor, type Stores } from "@/lib/store/stores";

export interface ServiceContext {
  config: Config;
  stores: Stores;
  /**
   * How a company's domain verification looks DNS TXT records up (node:dns's resolveTxt shape); the system's
   * resolvers when absent, as in the service. Tests give their own.
   */
  dnsLookup?: (name: string) => Promise<string[][]>;
}

/** What code that reads or writes data needs of the context. */
export type DataAccess = Pick<ServiceContext, "stores">;

/** The context over given stores and configuration (the CLI, tests). */
export const serviceContextFor = <C extends Config>(stores: Stores, config: C) => ({ config, stores });

export function getServiceContext(): ServiceContext {
  const config = getConfig();
  return serviceContextFor(storesFor(config.database), config);
}
