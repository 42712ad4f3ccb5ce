/**
 * `npm run demo` builds only when the sources changed since the last build: every file the build reads counts (code,
 * messages, configuration, .env, the lock file, a new file), and nothing else does (tests, documentation,
 * node_modules, the build's own output, the database).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isBuildCurrent, sourceFingerprint, writeBuildStamp } from "@/scripts/build-stamp";
import { COMPILED_SERVER } from "@/scripts/compiled-server";

let root: string;
const write = (file: string, text = "") => {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
};

/** Files the build reads. */
const INPUTS = [
  "app/page.tsx",
  "lib/config/index.ts",
  "lib/db/generated/sqlite/client.js",
  "messages/en.json",
  "prisma/models.prisma",
  "scripts/serve.ts",
  "package.json",
  "package-lock.json",
  "next.config.mjs",
  "proxy.ts",
  ".env",
];

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "optigate-stamp-"));
  for (const file of [
    ...INPUTS,
    "README.md",
    "docs/operations.md",
    "tests/unit/a.test.ts",
    "node_modules/next/index.js",
    "data/optigate.db",
    "playwright.config.ts",
    COMPILED_SERVER,
  ])
    write(file, `${file} 1`);
  writeBuildStamp(sourceFingerprint(root), root);
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("isBuildCurrent", () => {
  it("is true after the build, and stays so while only what the build does not read changes", () => {
    expect(isBuildCurrent(root)).toBe(true);
    for (const file of [
      "README.md",
      "docs/operations.md",
      "tests/unit/a.test.ts",
      "tests/unit/new.test.ts",
      "node_modules/next/index.js",
      "data/optigate.db",
      "playwright.config.ts",
      "tsconfig.tsbuildinfo",
      "next-env.d.ts",
      ".next/server/app/page.js",
      "test-results/shot.png",
    ])
      write(file, "changed");
    expect(isBuildCurrent(root)).toBe(true);
  });

  it.each(INPUTS)("is false once %s changes, and true again when it is as it was", (file) => {
    write(file, "changed");
    expect(isBuildCurrent(root)).toBe(false);
    write(file, `${file} 1`);
    expect(isBuildCurrent(root)).toBe(true);
  });

  it.each(["app/portal/new-page.tsx", "middleware.ts", ".env.local"])(
    "is false once %s is added, and true again when it is gone",
    (file) => {
      write(file, "new");
      expect(isBuildCurrent(root)).toBe(false);
      rmSync(path.join(root, file));
      expect(isBuildCurrent(root)).toBe(true);
    },
  );

  it("is false without a stamp or without the compiled server, and for a file moved to another folder", () => {
    write("lib/a.ts", "same");
    writeBuildStamp(sourceFingerprint(root), root);
    rmSync(path.join(root, "lib/a.ts"));
    write("app/a.ts", "same");
    expect(isBuildCurrent(root)).toBe(false);
    writeBuildStamp(sourceFingerprint(root), root);
    rmSync(path.join(root, COMPILED_SERVER));
    expect(isBuildCurrent(root)).toBe(false);
    write(COMPILED_SERVER);
    expect(isBuildCurrent(root)).toBe(true);
    rmSync(path.join(root, ".next/build-stamp.json"));
    expect(isBuildCurrent(root)).toBe(false);
  });
});
