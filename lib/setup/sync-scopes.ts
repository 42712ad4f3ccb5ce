/** Writes the built-in scope definitions to the `scopes` table; only rows that differ are touched. */
import type { Db } from "@/lib/db/prisma";
import { scopeDefinitions } from "@/lib/oauth/scopes";
import { storeScopes } from "@/lib/store/consent-store";

export async function syncScopes(db: Db, apiScopePrefix: string): Promise<void> {
  await storeScopes(
    db,
    scopeDefinitions(apiScopePrefix).map((scope) => ({
      name: scope.name,
      kind: scope.kind,
      displayNames: JSON.stringify(scope.displayNames),
      descriptions: JSON.stringify(scope.descriptions),
    })),
  );
}
