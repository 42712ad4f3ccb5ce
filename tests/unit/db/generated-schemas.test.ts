/** The provider schemas are generated from prisma/models.prisma; this fails when someone edited the models and did not regenerate. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MODELS_FILE, PROVIDERS, providerSchema, schemaFile } from "../../../scripts/prisma-schemas";

const models = readFileSync(MODELS_FILE, "utf8");

describe("the provider schemas", () => {
  it.each(PROVIDERS)("for %s are what npm run db:schemas writes from the models file", (provider) => {
    expect(readFileSync(schemaFile(provider), "utf8"), "stale: run npm run db:schemas").toBe(
      providerSchema(provider, models),
    );
  });

  it("differ only in the generator output and the datasource provider", () => {
    const [sqlite, postgresql] = PROVIDERS.map((provider) => providerSchema(provider, models));
    expect(sqlite).toContain('provider = "sqlite"');
    expect(postgresql.replaceAll("postgresql", "sqlite")).toBe(sqlite);
    expect(sqlite).toContain("model User {");
  });

  it("would be found stale after an edit of the models file", () => {
    const edited = models.replace("model User {", "model User {\n  nickname String?");
    expect(providerSchema("sqlite", edited)).not.toBe(readFileSync(schemaFile("sqlite"), "utf8"));
  });
});
