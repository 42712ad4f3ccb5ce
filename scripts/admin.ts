/** `npm run admin -- <command>`: the operator CLI (see lib/cli/admin-cli.ts). */
import { runAdminCommand } from "@/lib/cli/admin-cli";
import { serviceContextFor } from "@/lib/service-context";
import { loadConfig } from "@/lib/config";
import { prepareDatabase } from "@/lib/setup/prepare-database";
import { closeStores, storesFor } from "@/lib/store/stores";
import { announceBackchannelLogout } from "@/lib/oauth/endsession/channel-logout";
import { text } from "node:stream/consumers";
import { exitWithStartupError } from "./startup-error";

async function main(): Promise<void> {
  const config = loadConfig();
  // The CLI may be the first thing run against a new database: bring it up to date first.
  await prepareDatabase({ ...config, demoData: false });
  const stores = storesFor(config.database);
  const code = await runAdminCommand(
    {
      ...serviceContextFor(stores, config),
      apiScopePrefix: config.apiScopePrefix,
      production: config.production,
      outboundAllow: config.outboundAllow,
      catalogPullAllow: config.catalogPullAllow,
      secretKey: config.secretKey,
      publicUrl: config.publicUrl,
      print: (line) => console.log(line),
      printError: (line) => console.error(line),
      progress: process.stderr,
      announceLogout: (sessionIds) => announceBackchannelLogout(serviceContextFor(stores, config), sessionIds),
      passwordMinLength: config.passwordMinLength,
      passwordBreach: config.passwordBreach,
      auditRetentionDays: config.auditRetentionDays,
      readInput: () => text(process.stdin),
    },
    process.argv.slice(2),
  );
  await closeStores(config.database);
  process.exit(code);
}

main().catch(exitWithStartupError);
