/**
 * Route-handler mode (plain `next start`, as Vercel runs OptiGate): the token endpoint without the lean front, next to
 * its ceiling, a bare Next.js route handler that only reads the form and signs one ES256 JWT (bare-next/), built by
 * this run and served the same way on the same core right before.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { DatabaseTarget } from "@/lib/config/database-url";
import { backend, prepareBenchFixtures } from "./fixtures";
import { CONTAINER_NODE_OPTIONS, freePort, measure, onServerCore, result, startServer, stop, waitFor } from "./runner";

const NEXT = path.resolve("node_modules/next/dist/bin/next");
const BARE_APP = path.join(import.meta.dirname, "bare-next");
const REPOSITORY = path.resolve(".");
const NODE_MODULES = path.join(REPOSITORY, "node_modules");
const BARE_LABEL = "bare next start route handler + ES256 JWT";
const OURS_LABEL = "next start only, ES256 client_credentials";

const clientCredentials = { method: "POST" as const, path: "/connect/token", body: "grant_type=client_credentials" };

/**
 * The bare app, built in a folder of its own outside the repository: inside it, Next.js takes the repository's
 * instrumentation and proxy files for the app's.
 */
function buildBareNext(): string {
  const folder = mkdtempSync(path.join(tmpdir(), "optigate-bare-next-"));
  cpSync(BARE_APP, folder, { recursive: true });
  symlinkSync(NODE_MODULES, path.join(folder, "node_modules"));
  symlinkSync(REPOSITORY, path.join(folder, "optigate"));
  execFileSync(process.execPath, [NEXT, "build"], { cwd: folder, stdio: "ignore" });
  return folder;
}

async function measureBareNext(): Promise<void> {
  const folder = buildBareNext();
  const port = await freePort();
  const child = onServerCore(
    [process.execPath, NEXT, "start", "-p", String(port)],
    { NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", NODE_OPTIONS: CONTAINER_NODE_OPTIONS },
    folder,
  );
  child.stdout!.resume();
  try {
    await waitFor(`http://127.0.0.1:${port}/connect/token`);
    await measure(BARE_LABEL, `http://127.0.0.1:${port}`, clientCredentials);
  } finally {
    await stop(child);
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The bare route handler, then OptiGate's token handler through plain `next start` on `target`. */
export async function benchRouteHandlers(target: DatabaseTarget): Promise<void> {
  await measureBareNext();
  await prepareBenchFixtures(target, "ES256", 0, 0);
  const { child, baseUrl } = await startServer([process.execPath, NEXT, "start", "-p", "$PORT"], target, "ES256");
  try {
    await measure(OURS_LABEL, baseUrl, { ...clientCredentials, headers: backend });
  } finally {
    await stop(child);
  }
}

export function reportRouteHandlers(check: (label: string, ok: boolean) => void): void {
  const [bare, ours] = [result(BARE_LABEL), result(OURS_LABEL)];
  if (bare && ours)
    check(
      `the token endpoint under plain next start >= 0.9 of a bare Next.js route handler that signs one JWT (${ours.rps} vs ${bare.rps} req/s, ${(ours.rps / bare.rps).toFixed(2)})`,
      ours.rps >= 0.9 * bare.rps,
    );
}
