/**
 * Whether the production build is that of the sources as they are now, so that `npm run demo` skips a build of a
 * minute when nothing changed. `npm run build` (scripts/build.ts) writes BUILD_STAMP: a SHA-256 over the path and
 * content of every file the build reads, taken before the build starts, so that a file changed while it runs is
 * built at the next start. `next build` empties .next first: a build made any other way leaves no stamp.
 */
import { createHash, type Hash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { BUILD_STAMP, COMPILED_SERVER } from "./compiled-server";

/** Folders the build never reads: its output, data, tests, tools, documentation (read at run time, not built). */
const NOT_INPUTS = new Set([
  ".git",
  ".next",
  ".ci",
  "node_modules",
  "data",
  "tests",
  "test-results",
  "playwright-report",
  "bundle",
  "examples",
  "docs",
]);
/** At the top, the build reads code, configuration and .env files; of those, these are the test and lint tools'. */
const TOP_LEVEL_INPUT = /\.(?:[cm]?[jt]sx?|json)$|^\.env/;
const TOOL_FILE = /^(?:playwright.*|vitest|eslint)\.config\.[cm]?[jt]s$|^next-env\.d\.ts$|^vercel\.json$|^partner-/;

function addFolder(hash: Hash, root: string, folder: string): void {
  const entries = readdirSync(path.join(root, folder), { withFileTypes: true });
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const relative = folder ? `${folder}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!(folder === "" && NOT_INPUTS.has(entry.name)) && entry.name !== "node_modules")
        addFolder(hash, root, relative);
    } else if (entry.isFile() && (folder !== "" || (TOP_LEVEL_INPUT.test(entry.name) && !TOOL_FILE.test(entry.name)))) {
      const content = readFileSync(path.join(root, relative));
      hash.update(`${relative}\0${content.length}\0`).update(content);
    }
  }
}

/** The fingerprint of the build's inputs in the repository at `root`. */
export function sourceFingerprint(root = process.cwd()): string {
  const hash = createHash("sha256");
  addFolder(hash, root, "");
  return hash.digest("hex");
}

export function writeBuildStamp(fingerprint: string, root = process.cwd()): void {
  writeFileSync(path.join(root, BUILD_STAMP), `${JSON.stringify({ fingerprint })}\n`);
}

/** Whether a whole build is there and was made from the sources as they are now. */
export function isBuildCurrent(root = process.cwd()): boolean {
  const stamp = path.join(root, BUILD_STAMP);
  if (!existsSync(stamp) || !existsSync(path.join(root, COMPILED_SERVER))) return false;
  try {
    return (
      (JSON.parse(readFileSync(stamp, "utf8")) as { fingerprint?: unknown }).fingerprint === sourceFingerprint(root)
    );
  } catch {
    return false;
  }
}
