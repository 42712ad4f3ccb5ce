/** `npm run admin -- catalogs …`: import a supplier's catalog file, release a revision, list them. */
import { createReadStream } from "node:fs";
import { importCatalog, releaseRevision } from "@/lib/catalog/publishing/catalog-publishing";
import { expectArgs, unknownCommand, unreadableFile, UsageError } from "@/lib/cli/cli-arguments";
import { counted } from "@/lib/cli/english";
import type { Stores } from "@/lib/store/stores";

interface CatalogCliContext {
  stores: Stores;
  print: (line: string) => void;
  printError: (line: string) => void;
}

/** A file that is not there or not readable gives one clear line, not a stack trace. */
async function* fileText(file: string): AsyncIterable<string> {
  try {
    yield* createReadStream(file, { encoding: "utf8", highWaterMark: 256 * 1024 });
  } catch (error) {
    throw unreadableFile(file, error);
  }
}

async function supplierCompanyId(stores: Stores, supplierId: string): Promise<string> {
  const supplier = await stores.companies.findSupplier(supplierId);
  if (!supplier) throw new Error(`there is no supplier with supplierID "${supplierId}"`);
  return supplier.id;
}

async function importFile(context: CatalogCliContext, file: string): Promise<void> {
  const result = await importCatalog(context.stores, fileText(file));
  if (!result.ok) {
    // Every error of the file at once (up to the reader's limit), so that one round of fixes is enough.
    for (const error of result.errors) context.printError(`${file}:${error.line}: ${error.message}`);
    if (result.unreported) context.printError(`${file}: and ${counted(result.unreported, "more error")}`);
    throw new Error(`${file} was not imported (nothing was written)`);
  }
  context.print(
    `Imported revision ${result.revision} of catalog ${result.catalogId} (${result.resourceKey}) of supplier ${result.supplierId}: ${counted(result.articles, "article")}, not released yet.`,
  );
  context.print(
    `Release it with: npm run admin -- catalogs release ${result.supplierId} ${result.catalogId} ${result.revision}`,
  );
}

export async function catalogCommand(context: CatalogCliContext, [command, ...rest]: string[]): Promise<void> {
  if (command === "import") {
    const [file] = expectArgs(rest, "catalogs import <file.xml>");
    await importFile(context, file);
  } else if (command === "release") {
    const [supplierId, catalogId, revision] = expectArgs(rest, "catalogs release <supplierID> <catalogID> <revision>");
    if (!/^\d{1,9}$/.test(revision)) throw new UsageError(`the revision must be a number, got "${revision}"`);
    await releaseRevision(context.stores, {
      supplierCompanyId: await supplierCompanyId(context.stores, supplierId),
      catalogId,
      revision: Number(revision),
    });
    context.print(`Released revision ${revision} of catalog ${catalogId} of supplier ${supplierId}.`);
  } else if (command === "list") {
    const [supplierId] = expectArgs(rest, "catalogs list <supplierID>");
    const list = await context.stores.catalogs.listOfSupplier(await supplierCompanyId(context.stores, supplierId));
    if (list.length === 0) context.print(`Supplier ${supplierId} has no catalogs.`);
    for (const catalog of list) {
      context.print(`${catalog.catalogId} (${catalog.resourceKey}) ${catalog.name}`);
      for (const revision of catalog.revisions) {
        const state = revision.released ? "released" : revision.complete ? "not released" : "importing";
        const articles = counted(revision.articles, "article").padStart(15);
        context.print(
          `  revision ${revision.number}  ${state.padEnd(12)}  ${articles}  ${revision.publishedAt.toISOString().slice(0, 16)}  ${revision.comment}`,
        );
      }
    }
  } else {
    throw unknownCommand("catalogs", command, ["import", "release", "list"]);
  }
}
