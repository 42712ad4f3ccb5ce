/**
 * Vitest global setup of the integration project: migrates one database before any test file runs, and each file's
 * fresh database is then a copy of it (a file copy on SQLite, `CREATE DATABASE … TEMPLATE` on PostgreSQL) instead of
 * running every migration again.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import type { TestProject } from "vitest/node";
import { parseDatabaseUrl } from "@/lib/config/database-url";
import { applyMigrations } from "@/lib/db/migrator";
import { runAdminStatement, testProvider } from "./test-database";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated SQLite file or PostgreSQL database name to copy. */
    migratedTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (testProvider() === "postgresql") {
    const adminUrl = process.env.TEST_DATABASE_URL!;
    const url = new URL(adminUrl);
    const name = `${url.pathname.slice(1)}_template_${randomBytes(4).toString("hex")}`.toLowerCase();
    await runAdminStatement(adminUrl, `CREATE DATABASE "${name}"`);
    url.pathname = `/${name}`;
    await applyMigrations(parseDatabaseUrl(url.toString()));
    project.provide("migratedTemplate", name);
    return () => runAdminStatement(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
  const directory = mkdtempSync(path.join(tmpdir(), "optigate-template-"));
  const file = path.join(directory, "optigate.db");
  await applyMigrations(parseDatabaseUrl(`file:${file}`));
  project.provide("migratedTemplate", file);
  return async () => rmSync(directory, { recursive: true, force: true });
}
