import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/** The schema text without comments, generator and datasource blocks: what must be equal for both providers. */
function models(file: string): string {
  return readFileSync(file, "utf8")
    .replace(/^\s*\/\/.*$/gm, "")
    .replace(/^(generator|datasource)\s+\w+\s*\{[^}]*\}/gm, "")
    .replace(/[ \t]+/g, " ")
    .replace(/\n\s*\n+/g, "\n")
    .trim();
}

describe("Prisma schema files", () => {
  it("declare the same models for SQLite and PostgreSQL", () => {
    const sqlite = models("prisma/sqlite/schema.prisma");
    const postgresql = models("prisma/postgresql/schema.prisma");
    expect(sqlite).toContain("model User {");
    expect(postgresql).toBe(sqlite);
  });

  it("differ only in provider and output", () => {
    expect(readFileSync("prisma/sqlite/schema.prisma", "utf8")).toMatch(/provider = "sqlite"/);
    expect(readFileSync("prisma/postgresql/schema.prisma", "utf8")).toMatch(/provider = "postgresql"/);
  });
});
