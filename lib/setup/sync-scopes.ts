/** Writes the built-in scope definitions to the `scopes` table; only rows that differ are touched. */
import type { Db } from "@/lib/db/prisma";
import { scopeDefinitions } from "@/lib/oauth/scopes";

export async function syncScopes(db: Db, apiScopePrefix: string): Promise<void> {
  const existing = new Map((await db.scope.findMany()).map((row) => [row.name, row]));
  for (const scope of scopeDefinitions(apiScopePrefix)) {
    const data = {
      kind: scope.kind,
      displayNames: JSON.stringify(scope.displayNames),
      descriptions: JSON.stringify(scope.descriptions),
    };
    const row = existing.get(scope.name);
    if (!row) {
      await db.scope.create({ data: { name: scope.name, ...data } });
    } else if (
      row.kind !== data.kind ||
      row.displayNames !== data.displayNames ||
      row.descriptions !== data.descriptions
    ) {
      await db.scope.update({ where: { name: scope.name }, data });
    }
  }
}
