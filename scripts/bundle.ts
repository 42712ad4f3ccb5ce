/**
 * `npm run bundle`: after `next build` (output "standalone"), writes `bundle/`, exactly what the container image
 * copies: the traced standalone server with its minimal node_modules, the static files, the SQL migrations, and the
 * start script, migrate command and operator CLI compiled to plain JavaScript (no tsx, no dev dependencies).
 * Run it with `node serve.mjs` (or `node migrate.mjs`, `node admin.mjs …`) inside that folder.
 */
import { cpSync, existsSync, rmSync, statSync, readdirSync } from "node:fs";
import path from "node:path";
import { build, type Plugin } from "esbuild";

const root = process.cwd();
const out = path.join(root, "bundle");
const standalone = path.join(root, ".next", "standalone");

/** Packages the standalone trace carries in node_modules; everything else is compiled into the scripts. */
const EXTERNAL = [
  "next",
  "better-sqlite3",
  "pg",
  "@prisma/adapter-better-sqlite3",
  "@prisma/adapter-pg",
  "@prisma/client",
];

/**
 * `next` has no exports map, so an ES module must name its files with their extension (`next/server.js`): the
 * compiled scripts are ES modules, the sources name them as CommonJS allows.
 */
const nextSubpaths: Plugin = {
  name: "next-subpaths",
  setup(build) {
    build.onResolve({ filter: /^next\/.+/ }, (args) => ({
      path: args.path.endsWith(".js") ? args.path : `${args.path}.js`,
      external: true,
    }));
  },
};

function size(target: string): number {
  const stat = statSync(target);
  return stat.isDirectory()
    ? readdirSync(target).reduce((sum, name) => sum + size(path.join(target, name)), 0)
    : stat.size;
}

async function main(): Promise<void> {
  if (!existsSync(path.join(standalone, "server.js")))
    throw new Error("no standalone build: run `npm run bundle`, which builds first");
  rmSync(out, { recursive: true, force: true });
  cpSync(standalone, out, { recursive: true });
  rmSync(path.join(out, "server.js")); // serve.mjs serves, with the lean front
  cpSync(path.join(root, ".next", "static"), path.join(out, ".next", "static"), { recursive: true });
  rmSync(path.join(out, "prisma"), { recursive: true, force: true });
  cpSync(path.join(root, "prisma", "migrations"), path.join(out, "prisma", "migrations"), { recursive: true });
  await build({
    entryPoints: { serve: "scripts/serve.ts", migrate: "scripts/migrate.ts", admin: "scripts/admin.ts" },
    outdir: out,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    external: EXTERNAL.flatMap((name) => [name, `${name}/*`]),
    plugins: [nextSubpaths],
    tsconfig: "tsconfig.json",
    // CommonJS dependencies compiled into an ES module still call require().
    banner: {
      js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
    },
    logLevel: "warning",
  });
  console.log(`bundle/: ${(size(out) / 1e6).toFixed(1)} MB; start it with: cd bundle && node serve.mjs`);
}

main().catch((error: Error) => {
  console.error(`bundle failed: ${error.message}`);
  process.exit(1);
});
