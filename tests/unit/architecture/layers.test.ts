/**
 * The layering of the code, checked on its import statements. Lower layers never import higher ones, and app/ (pages,
 * layouts, route files) reaches the database only through the data-access layer (lib/rights), the page glue that uses
 * it (lib/pages) and the route table (lib/server/routes.ts): a page cannot read data around the rights checks.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");

/** Bottom to top; a module may import its own layer and those below it. */
const LAYERS: [number, string[]][] = [
  [0, ["lib/config", "lib/errors", "lib/crypto", "lib/http", "lib/i18n", "lib/observability", "messages"]],
  [1, ["lib/db"]],
  [2, ["lib/store", "lib/service-context.ts"]],
  [3, ["lib/session", "lib/mail", "lib/proof-of-work"]],
  [4, ["lib/jwt", "prisma"]],
  [5, ["lib/oauth"]],
  [6, ["lib/catalog"]],
  [7, ["lib/admin", "lib/account", "lib/second-factor", "lib/quick-start"]],
  [8, ["lib/setup"]],
  [9, ["lib/rights"]],
  [10, ["lib/forms", "lib/pages", "lib/server", "lib/api", "lib/cli"]],
  [11, ["app", "scripts", "proxy.ts", "instrumentation.ts"]],
];

/** What app/ may import although it leads to the database: the layers whose job is to guard that path. */
const APP_DATA_ENTRIES = ["lib/rights/", "lib/pages/", "lib/server/routes.ts"];
const DATABASE = ["lib/db/", "lib/service-context.ts"];

function sourceFiles(directory: string): string[] {
  return readdirSync(path.join(ROOT, directory)).flatMap((name) => {
    const relative = path.join(directory, name);
    if (name === "generated" || name === "node_modules") return [];
    if (statSync(path.join(ROOT, relative)).isDirectory()) return sourceFiles(relative);
    return /\.(ts|tsx)$/.test(name) ? [relative] : [];
  });
}

const FILES = [
  ...sourceFiles("lib"),
  ...sourceFiles("app"),
  ...sourceFiles("scripts"),
  "proxy.ts",
  "instrumentation.ts",
];

function resolveImport(from: string, specifier: string): string | undefined {
  let base: string;
  if (specifier.startsWith("@/")) base = specifier.slice(2);
  else if (specifier.startsWith(".")) base = path.join(path.dirname(from), specifier);
  else return undefined; // a package
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) {
    if (existsSync(path.join(ROOT, candidate)) && statSync(path.join(ROOT, candidate)).isFile())
      return path.normalize(candidate);
  }
  return undefined;
}

/** Imports that load a module; `import type` is erased at compile time and loads nothing. */
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b(?!\s+type\b)[^"';]*?\bfrom\s*["']([^"']+)["']|(?:^|\n)\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;
/** Every import, type-only ones included: what a reader of the module must know. */
const ANY_IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^"';]*?\bfrom\s*["']([^"']+)["']|(?:^|\n)\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

function importsOf(file: string, pattern = IMPORT): string[] {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  return [...text.matchAll(pattern)].flatMap((match) => {
    const resolved = resolveImport(file, match[1] ?? match[2] ?? match[3]);
    return resolved ? [resolved] : [];
  });
}

const GRAPH = new Map(FILES.map((file) => [file, importsOf(file)]));
const TYPE_GRAPH = new Map(FILES.map((file) => [file, importsOf(file, ANY_IMPORT)]));

function layerOf(file: string): number {
  for (const [rank, prefixes] of LAYERS)
    if (prefixes.some((prefix) => file === prefix || file.startsWith(`${prefix}/`))) return rank;
  throw new Error(`${file} belongs to no layer: add it to LAYERS`);
}

function reachesDatabase(file: string, seen = new Set<string>()): boolean {
  if (DATABASE.some((prefix) => file.startsWith(prefix))) return true;
  if (seen.has(file)) return false;
  seen.add(file);
  return (GRAPH.get(file) ?? importsOf(file)).some((next) => reachesDatabase(next, seen));
}

describe("layers", () => {
  it("finds the imports it checks", () => {
    expect(GRAPH.get("lib/server/routes.ts")).toContain("lib/oauth/token/token-endpoint.ts");
    expect(GRAPH.get("app/admin/clients/page.tsx")).toContain("lib/rights/operator-clients.ts");
  });

  it("never import from a higher layer", () => {
    const upward = [...GRAPH].flatMap(([file, imports]) =>
      imports.filter((target) => layerOf(target) > layerOf(file)).map((target) => `${file} -> ${target}`),
    );
    expect(upward).toEqual([]);
  });

  it("let app/ reach the database only through the data-access layer and the route table", () => {
    const around = [...GRAPH]
      .filter(([file]) => file.startsWith("app/"))
      .flatMap(([file, imports]) =>
        imports
          .filter((target) => !APP_DATA_ENTRIES.some((entry) => target.startsWith(entry)) && reachesDatabase(target))
          .map((target) => `${file} -> ${target}`),
      );
    expect(around).toEqual([]);
  });

  it("mark the data-access layer, and the page glue that reaches the database, server-only", () => {
    const marked = (file: string) => readFileSync(path.join(ROOT, file), "utf8").includes('import "server-only";');
    const guarded = FILES.filter(
      (file) =>
        (file.startsWith("lib/rights/") && !file.endsWith("node-server-only.ts")) ||
        (file.startsWith("lib/pages/") && reachesDatabase(file)),
    );
    expect(guarded.length).toBeGreaterThan(5);
    expect(guarded.filter((file) => !marked(file))).toEqual([]);
  });

  it("never import from a higher layer, not even a type", () => {
    const upward = [...TYPE_GRAPH].flatMap(([file, imports]) =>
      imports.filter((target) => layerOf(target) > layerOf(file)).map((target) => `${file} -> ${target}`),
    );
    expect(upward).toEqual([]);
  });

  it("never let two folders import each other, directly or through others, types included", () => {
    const folderOf = (file: string) =>
      file.startsWith("lib/") ? file.split("/").slice(0, 2).join("/") : file.split("/")[0];
    const edges = new Map<string, Set<string>>();
    for (const [file, imports] of TYPE_GRAPH)
      for (const target of imports)
        if (folderOf(target) !== folderOf(file))
          edges.set(folderOf(file), (edges.get(folderOf(file)) ?? new Set()).add(folderOf(target)));
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
      [...(edges.get(from) ?? [])].some(
        (next) => next === to || (!seen.has(next) && seen.add(next) && reaches(next, to, seen)),
      );
    const cycles = [...edges].flatMap(([folder, targets]) =>
      [...targets].filter((target) => reaches(target, folder)).map((target) => `${folder} <-> ${target}`),
    );
    expect(cycles).toEqual([]);
  });

  it("derive every error class from OptiGateError, so that each has a literal code", () => {
    const plain = FILES.filter((file) => file !== "lib/errors/optigate-error.ts").filter((file) =>
      /class \w+ extends Error\b/.test(readFileSync(path.join(ROOT, file), "utf8")),
    );
    expect(plain).toEqual([]);
  });

  it("keep every module of app/ and lib/ small (at most 300 lines)", () => {
    const long = FILES.filter((file) => /^(app|lib)\//.test(file)).filter(
      (file) => readFileSync(path.join(ROOT, file), "utf8").split("\n").length > 301,
    );
    expect(long).toEqual([]);
  });
});
