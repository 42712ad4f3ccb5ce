/**
 * Only the stores (lib/store) and the database layer under them (lib/db) reach the data: everywhere else, code calls
 * the stores of its context, which take and return OptiGate's own models. This fails on a Prisma model operation, a
 * transaction or raw query, or any import (types too) of lib/db, of Prisma or of the generated clients outside them.
 * The bench fixtures write rows at volume and are left out, as are the tests.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const OWNERS = ["lib/store/", "lib/db/"];
const EXEMPT = ["scripts/bench/"];

function sourceFiles(directory: string): string[] {
  return readdirSync(path.join(ROOT, directory)).flatMap((name) => {
    const relative = path.join(directory, name);
    if (name === "generated" || name === "node_modules") return [];
    if (statSync(path.join(ROOT, relative)).isDirectory()) return sourceFiles(relative);
    return /\.(ts|tsx|mts)$/.test(name) ? [relative] : [];
  });
}

const MODELS = [...readFileSync(path.join(ROOT, "prisma/models.prisma"), "utf8").matchAll(/^model (\w+)/gm)].map(
  ([, name]) => name[0].toLowerCase() + name.slice(1),
);
const OPERATIONS =
  "findUnique|findUniqueOrThrow|findFirst|findFirstOrThrow|findMany|create|createMany|createManyAndReturn|update|updateMany|updateManyAndReturn|upsert|delete|deleteMany|count|aggregate|groupBy";
const MODEL_CALL = new RegExp(`(\\.|\\[["'])(${MODELS.join("|")})(["']\\])?\\s*\\.\\s*(${OPERATIONS})\\s*\\(`, "g");
const RAW_ACCESS = /\.\s*\$(transaction|queryRaw|queryRawUnsafe|executeRaw|executeRawUnsafe)\b/g;
// Prisma's OpenTelemetry instrumentation (lib/observability/start-tracing.ts) only turns its queries into spans.
const DATABASE_LAYER =
  /(from\s+|import\(\s*)["'](@\/lib\/db(\/[\w/-]+)?|@prisma\/(?!instrumentation["'])[\w/-]+|\.prisma\/client|[\w./@-]*\/generated\/[\w/-]+)["']/g;
const PATTERNS = [MODEL_CALL, RAW_ACCESS, DATABASE_LAYER];

/** What a file does that only a store may do, by line; the whole text is searched, so a call may span lines. */
function violations(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  return PATTERNS.flatMap((pattern) =>
    [...text.matchAll(pattern)].map((match) => {
      const line = text.slice(0, match.index).split("\n").length;
      return `${file}:${line}: ${match[0].replace(/\s+/g, " ")}`;
    }),
  );
}

const matches = (text: string) => PATTERNS.some((pattern) => [...text.matchAll(pattern)].length > 0);

const FILES = [...sourceFiles("lib"), ...sourceFiles("app"), ...sourceFiles("scripts"), "proxy.ts"].filter(
  (file) => ![...OWNERS, ...EXEMPT].some((prefix) => file.startsWith(prefix)),
);

describe("the stores own the data", () => {
  it("knows the models it looks for", () => {
    expect(MODELS).toEqual(expect.arrayContaining(["user", "refreshToken", "catalog", "auditEvent"]));
  });

  it.each([
    ["await db.user.findUnique({ where: { id } })"],
    ["tx.refreshToken.updateMany({"],
    ["return context.db.catalogRevision . findMany("],
    ["await db.$transaction(async (tx) => {"],
    ["await db.user\n      .findMany({ where })"],
    ['db["refreshToken"].deleteMany()'],
    ["tx.catalogArticle.createManyAndReturn({"],
    ['import { slideRefreshToken } from "@/lib/db/statements/tokens";'],
    ['import { groupedUpdate } from "@/lib/db/grouped-update";'],
    ['import type { Db } from "@/lib/db/prisma";'],
    ['import type { Client } from "@/lib/db/rows";'],
    ['import { getDb } from "@/lib/db";'],
    ['const { getDb } = await import("@/lib/db");'],
    ['import type { PrismaClient } from "@prisma/client";'],
    ['import { PrismaPg } from "@prisma/adapter-pg";'],
    ['import { Prisma } from "../db/generated/sqlite/client";'],
  ])("recognizes %s", (line) => {
    expect(matches(line)).toBe(true);
  });

  it.each([
    ["const user = await context.stores.users.find(id);"],
    ["hash.update(value)"],
    ['import { prismaStores } from "@/lib/store/stores";'],
    ['import type { Company } from "@/lib/store/models/user";'],
    ['import { PrismaInstrumentation } from "@prisma/instrumentation";'],
  ])("lets %s pass", (line) => {
    expect(matches(line)).toBe(false);
  });

  it("no file outside lib/store and lib/db queries the database or imports its layer", () => {
    expect(FILES.flatMap(violations)).toEqual([]);
  });
});
