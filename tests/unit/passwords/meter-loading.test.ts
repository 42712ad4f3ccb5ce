/**
 * How the strength meter's code reaches the browser: zxcvbn-ts and its dictionaries are never imported statically, so
 * that no page's first JavaScript holds them; the meter loads the estimator at the first keystroke, and the estimator
 * loads each language's pack by an import of its own (a chunk of its own), only for the languages asked for. The login
 * page does not reach the estimator or the meter at all.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LOCALES } from "@/lib/i18n/locales";
import { wordLanguages } from "@/lib/crypto/password-estimator";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const ESTIMATOR = "lib/crypto/password-estimator.ts";
const METER = "app/_components/password-strength.tsx";

const source = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

/** Imports that load a module when the importing one loads: not `import type`, not `import()`. */
const STATIC_IMPORT =
  /(?:^|\n)\s*(?:import|export)\b(?!\s+type\b)[^"';]*?\bfrom\s*["']([^"']+)["']|(?:^|\n)\s*import\s*["']([^"']+)["']/g;
/** `import("…")` that loads a module: not `typeof import("…")`, a type. */
const DYNAMIC_IMPORT = /(?<!typeof\s)\bimport\(\s*["']([^"']+)["']\s*\)/g;

function resolved(from: string, specifier: string): string {
  if (!specifier.startsWith("@/") && !specifier.startsWith(".")) return specifier;
  const base = specifier.startsWith("@/") ? specifier.slice(2) : path.join(path.dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`];
  const file = candidates.find((each) => existsSync(path.join(ROOT, each)) && statSync(path.join(ROOT, each)).isFile());
  return path.normalize(file ?? base);
}

const staticImports = (file: string) =>
  [...source(file).matchAll(STATIC_IMPORT)].map((match) => resolved(file, match[1] ?? match[2]));

/** Every module and package that loads with `entry`, following static imports only. */
function loadedWith(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  if (/\.(ts|tsx)$/.test(entry)) for (const next of staticImports(entry)) loadedWith(next, seen);
  return seen;
}

describe("the strength meter's loading", () => {
  it("imports zxcvbn-ts only on demand, each language's pack by its own import", () => {
    expect(staticImports(ESTIMATOR).filter((specifier) => specifier.startsWith("@zxcvbn-ts/"))).toEqual([]);
    const loaded = [...source(ESTIMATOR).matchAll(DYNAMIC_IMPORT)].map((match) => match[1]);
    expect([...new Set(loaded)].sort()).toEqual([
      "@zxcvbn-ts/core",
      "@zxcvbn-ts/language-common",
      "@zxcvbn-ts/language-de",
      "@zxcvbn-ts/language-en",
      "@zxcvbn-ts/language-es-es",
      "@zxcvbn-ts/language-fr",
      "@zxcvbn-ts/language-it",
      "@zxcvbn-ts/language-nl-be",
      "@zxcvbn-ts/language-pl",
    ]);
  });

  it("has a pack for every page language, English and German always read", () => {
    expect(wordLanguages(LOCALES)).toEqual(["de", "es", "fr", "it", "nl", "pl"]);
    expect(wordLanguages(["en", null, undefined, "xx", "toString", "fr", "fr"])).toEqual(["de", "fr"]);
    expect(wordLanguages([])).toEqual(["de"]);
  });

  it("lets the meter load the estimator at the first keystroke, not with the page", () => {
    expect(staticImports(METER)).not.toContain(ESTIMATOR);
    expect([...source(METER).matchAll(DYNAMIC_IMPORT)].map((match) => match[1])).toEqual([
      "@/lib/crypto/password-estimator",
    ]);
  });

  it("keeps zxcvbn-ts out of every page's static imports, and the meter out of the login page's", () => {
    const pages = [
      "app/(sign-in)/login/page.tsx",
      "app/(sign-in)/invitation/page.tsx",
      "app/(sign-in)/password/reset/page.tsx",
      "app/portal/profile/page.tsx",
    ];
    for (const page of pages)
      expect(
        [...loadedWith(page)].filter((loaded) => loaded.startsWith("@zxcvbn-ts/")),
        page,
      ).toEqual([]);
    const login = new Set([...loadedWith("app/(sign-in)/login/page.tsx"), ...loadedWith("app/layout.tsx")]);
    expect(login.has(ESTIMATOR)).toBe(false);
    expect(login.has(METER)).toBe(false);
    // the check itself follows imports: the profile page reaches the meter
    expect(loadedWith("app/portal/profile/page.tsx").has(METER)).toBe(true);
  });
});
