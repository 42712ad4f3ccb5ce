/**
 * `npm run build`: Next.js's production build, then the start script, migrate command and operator CLI compiled to
 * JavaScript (scripts/compile-server.ts), then the stamp that tells `npm run demo` which sources were built
 * (scripts/build-stamp.ts). The sources' fingerprint is taken first: a file changed during the build is built again
 * at the next demo start.
 */
import { spawnSync } from "node:child_process";
import { sourceFingerprint, writeBuildStamp } from "./build-stamp";
import { compileServer } from "./compile-server";

async function main(): Promise<void> {
  const fingerprint = sourceFingerprint();
  const next = spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], { stdio: "inherit" });
  if (next.status !== 0) process.exit(next.status ?? 1);
  await compileServer();
  writeBuildStamp(fingerprint);
}

main().catch((error: Error) => {
  console.error(`the build failed: ${error.message}`);
  process.exit(1);
});
