/** `npm run migrate`: applies pending migrations to DATABASE_URL and says what it did. */
import { loadConfig } from "@/lib/config";
import { applyMigrations } from "@/lib/db/migrator";
import { exitWithStartupError } from "./startup-error";

async function main(): Promise<void> {
  const applied = await applyMigrations(loadConfig().database);
  console.log(applied.length > 0 ? `Applied: ${applied.join(", ")}` : "Database is up to date.");
}

main().catch(exitWithStartupError);
