/** What the account's self-service needs of the service: its data and the settings of links, mail and passwords. */
import type { Config } from "@/lib/config";
import type { DataAccess } from "@/lib/service-context";
import type { BreachCheckSettings } from "@/lib/http/breached-passwords";

export interface AccountContext extends DataAccess {
  config: Pick<Config, "publicUrl" | "secretKey" | "passwordMinLength"> & BreachCheckSettings;
}
