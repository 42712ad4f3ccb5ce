/** `npm run admin -- catalogs …` (CONTRACT §4): import a supplier's catalog file, release a revision, list them. */
import { createReadStream } from "node:fs";
import { importCatalog, releaseRevision } from "@/lib/catalog/publishing/catalog-publishing";
import { expectArgs, UsageError } from "@/lib/cli/cli-arguments";
import type { Db } from "@/lib/db/prisma";
import { listSupplierCatalogs } from "@/lib/store/catalog-store";
import { findSupplier } from "@/lib/store/company-store";

interface CatalogCliContext {
  db: Db;
  print: (line: string) => void;
  printError: (line: string) => void;
}

/** A file that is not there or not readable gives one clear line, not a stack trace. */
async function* fileText(file: string): AsyncIterable<string> {
  try {
    yield* createReadStream(file, { encoding: "utf8", highWaterMark: 256 * 1024 });
  } catch (error) {
    throw new Error(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, {
      cause: error,
    });
  }
}

async function supplierCompanyId(db: Db, supplierId: string): Promise<string> {
  const supplier = await findSupplier(db, supplierId);
  if (!supplier) throw new Error(`there is no supplier with supplierID "${supplierId}"`);
  return supplier.id;
}

export async function catalogCommand(context: CatalogCliContext, [command, ...rest]: string[]): Promise<void> {
  if (command === "import") {
    const [file] = expectArgs(rest, 1);
    const result = await importCatalog(context.db, fileText(file));
    if (!result.ok) {
      for (const error of result.errors) context.printError(`${file}:${error.line}: ${error.message}`);
      throw new Error(`${file} was not imported (nothing was written)`);
    }
    context.print(
      `Imported revision ${result.revision} of catalog ${result.catalogId} (${result.resourceKey}) of supplier ${result.supplierId}: ${result.articles} articles, not released yet.`,
    );
    context.print(
      `Release it with: npm run admin -- catalogs release ${result.supplierId} ${result.catalogId} ${result.revision}`,
    );
  } else if (command === "release") {
    const [supplierId, catalogId, revision] = expectArgs(rest, 3);
    if (!/^\d{1,9}$/.test(revision)) throw new UsageError(`the revision must be a number, got "${revision}"`);
    await releaseRevision(context.db, {
      supplierCompanyId: await supplierCompanyId(context.db, supplierId),
      catalogId,
      revision: Number(revision),
    });
    context.print(`Released revision ${revision} of catalog ${catalogId} of supplier ${supplierId}.`);
  } else if (command === "list") {
    const [supplierId] = expectArgs(rest, 1);
    const list = await listSupplierCatalogs(context.db, await supplierCompanyId(context.db, supplierId));
    if (list.length === 0) context.print(`Supplier ${supplierId} has no catalogs.`);
    for (const catalog of list) {
      context.print(`${catalog.catalogId} (${catalog.resourceKey}) ${catalog.name}`);
      for (const revision of catalog.revisions) {
        const state = revision.released ? "released" : revision.complete ? "not released" : "importing";
        context.print(
          `  revision ${revision.number}  ${state.padEnd(12)}  ${String(revision.articles).padStart(7)} articles  ${revision.publishedAt.toISOString().slice(0, 16)}  ${revision.comment}`,
        );
      }
    }
  } else {
    throw new UsageError(`unknown command "catalogs ${command ?? ""}"`);
  }
}
