/**
 * `npm run bundle`: after `npm run build` (Next.js's "standalone" output and the compiled scripts), writes `bundle/`,
 * exactly what the container image copies: the traced standalone server with its minimal node_modules, the static
 * files, the SQL migrations, and the start script, migrate command and operator CLI that `npm start` runs too, in
 * plain JavaScript (no tsx, no dev dependencies).
 * Run it with `node serve.mjs` (or `node migrate.mjs`, `node admin.mjs …`) inside that folder.
 */
import { cpSync, existsSync, rmSync, statSync, readdirSync } from "node:fs";
import path from "node:path";
import { COMPILED_FOLDER, COMPILED_SERVER } from "./compiled-server";

const root = process.cwd();
const out = path.join(root, "bundle");
const standalone = path.join(root, ".next", "standalone");

function size(target: string): number {
  const stat = statSync(target);
  return stat.isDirectory()
    ? readdirSync(target).reduce((sum, name) => sum + size(path.join(target, name)), 0)
    : stat.size;
}

async function main(): Promise<void> {
  if (!existsSync(path.join(standalone, "server.js")) || !existsSync(path.join(root, COMPILED_SERVER)))
    throw new Error("no build: run `npm run bundle`, which builds first");
  rmSync(out, { recursive: true, force: true });
  cpSync(standalone, out, { recursive: true });
  rmSync(path.join(out, "server.js")); // serve.mjs serves, with the lean front
  cpSync(path.join(root, ".next", "static"), path.join(out, ".next", "static"), { recursive: true });
  rmSync(path.join(out, "prisma"), { recursive: true, force: true });
  cpSync(path.join(root, "prisma", "migrations"), path.join(out, "prisma", "migrations"), { recursive: true });
  // The compiled start script, migrate command and CLI, with their chunks: the very files `npm start` runs.
  cpSync(path.join(root, COMPILED_FOLDER), out, { recursive: true });
  console.log(`bundle/: ${(size(out) / 1e6).toFixed(1)} MB; start it with: cd bundle && node serve.mjs`);
}

main().catch((error: Error) => {
  console.error(`bundle failed: ${error.message}`);
  process.exit(1);
});
