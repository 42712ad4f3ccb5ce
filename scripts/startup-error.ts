/** Turns a start-up failure into the one line the operator needs; unexpected errors keep their stack. */
import { ConfigError } from "@/lib/config";
import { redactPassword } from "@/lib/config/database-url";
import { MigrationError } from "@/lib/store/database-setup";

export function exitWithStartupError(error: unknown): never {
  if (error instanceof ConfigError) {
    console.error(`Configuration error: ${error.message}`);
  } else if (error instanceof MigrationError) {
    console.error(`Database migration failed: ${error.message}`);
  } else if (
    error instanceof Error &&
    /ECONNREFUSED|ENOTFOUND|unable to open database|does not exist/i.test(error.message)
  ) {
    console.error(`Database unreachable: ${redactPassword(error.message)}`);
  } else {
    console.error(error);
  }
  process.exit(1);
}
