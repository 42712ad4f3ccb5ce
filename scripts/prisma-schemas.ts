/**
 * Writes the Prisma schema of each provider from the one models file, prisma/models.prisma (`npm run db:schemas`).
 * The provider schemas differ only in their generator and datasource blocks; they are committed, generated, and
 * never edited by hand (tests/unit/db/generated-schemas.test.ts fails when they are stale).
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export const PROVIDERS = ["sqlite", "postgresql"] as const;
export type SchemaProvider = (typeof PROVIDERS)[number];

export const MODELS_FILE = "prisma/models.prisma";
export const schemaFile = (provider: SchemaProvider) => `prisma/${provider}/schema.prisma`;

/** The schema text of one provider, from the models file's text. */
export function providerSchema(provider: SchemaProvider, models: string): string {
  return `// GENERATED from prisma/models.prisma by \`npm run db:schemas\`: edit the models there, not here.

generator client {
  provider     = "prisma-client"
  output       = "../../lib/db/generated/${provider}"
  moduleFormat = "esm"
}

datasource db {
  provider = "${provider}"
}

${models.replace(/^(\/\/[^\n]*\n)+\n/, "")}`;
}

function main(root: string): void {
  const models = readFileSync(path.join(root, MODELS_FILE), "utf8");
  for (const provider of PROVIDERS) {
    writeFileSync(path.join(root, schemaFile(provider)), providerSchema(provider, models));
    console.log(`wrote ${schemaFile(provider)}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) main(process.cwd());
