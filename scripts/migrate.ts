/**
 * `npm run migrate`: prepares DATABASE_URL completely, as the start script does before serving: migrations, the
 * built-in scopes, signing keys, and with DEMO_DATA=1 the demo data. Where only Next.js serves, run it from the build.
 */
import { closeStores } from "@/lib/store/stores";
import { loadConfig } from "@/lib/config";
import { prepareDatabase } from "@/lib/setup/prepare-database";
import { progressReporter } from "@/lib/cli/progress";
import { exitWithStartupError } from "./startup-error";

async function main(): Promise<void> {
  const config = loadConfig();
  const progress = progressReporter(process.stderr, {
    label: "migrate",
    noun: "migration",
    print: (line) => console.log(line),
  });
  const prepared = await progress.track((onProgress) => prepareDatabase(config, onProgress));
  progress.finish(
    prepared.appliedMigrations.length > 0
      ? `Applied: ${prepared.appliedMigrations.join(", ")}`
      : "Database is up to date.",
  );
  if (prepared.createdKeys.length > 0) console.log(`Created signing keys: ${prepared.createdKeys.join(", ")}`);
  if (prepared.demoDataCreated.length > 0) console.log(`Loaded demo data: ${prepared.demoDataCreated.join(", ")}`);
  for (const warning of prepared.warnings) console.warn(`Warning: ${warning}`);
  await closeStores(config.database);
}

main().catch(exitWithStartupError);
