/** What the account's self-service needs of the service: its database and the settings of links, mail and passwords. */
import type { Config } from "@/lib/config";
import type { Db } from "@/lib/db/prisma";

export interface AccountContext {
  db: Db;
  config: Pick<Config, "publicUrl" | "secretKey" | "passwordMinLength">;
}
