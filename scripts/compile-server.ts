/**
 * The second step of `npm run build` (scripts/build.ts): compiles the start script, the migrate command and the
 * operator CLI to plain JavaScript in .next/optigate/ (scripts/compiled-server.ts names the files). `npm start` runs
 * that serve.mjs with the repository's node_modules, and the bundle (scripts/bundle.ts) copies the same files beside
 * the traced ones, so the container runs the very server `npm start` runs; neither needs tsx. Endpoints that load on
 * demand become chunks of their own, read only when a process first serves them.
 */
import { rmSync } from "node:fs";
import { build, type Plugin } from "esbuild";
import { COMPILED_FOLDER } from "./compiled-server";

/** Packages the standalone trace carries in node_modules; everything else is compiled into the scripts. */
export const EXTERNAL = [
  "next",
  "better-sqlite3",
  "pg",
  "@prisma/adapter-better-sqlite3",
  "@prisma/adapter-pg",
  "@prisma/client",
  // a native binding: its platform's package is loaded at run time
  "@node-rs/argon2",
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

export async function compileServer(): Promise<void> {
  rmSync(COMPILED_FOLDER, { recursive: true, force: true });
  await build({
    entryPoints: { serve: "scripts/serve.ts", migrate: "scripts/migrate.ts", admin: "scripts/admin.ts" },
    outdir: COMPILED_FOLDER,
    outExtension: { ".js": ".mjs" },
    chunkNames: "chunks/[name]-[hash]",
    bundle: true,
    splitting: true,
    platform: "node",
    target: "node22",
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
  console.log(`compiled the server to ${COMPILED_FOLDER}/ (npm start runs serve.mjs)`);
}
