/**
 * `npm run admin -- catalogs …`: import a supplier's catalog file (by path, or from a URL as the catalog page pulls
 * it), release a revision, list them.
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { countArticleTags } from "@/lib/catalog/publishing/article-count";
import { importCatalog, pullCatalogFile, releaseRevision } from "@/lib/catalog/publishing/catalog-publishing";
import { expectArgs, unknownCommand, unreadableFile, UsageError, type CliContext } from "@/lib/cli/cli-arguments";
import { PullRefused } from "@/lib/http/pulled-file";
import { counted } from "@/lib/cli/english";
import { progressReporter, type ProgressStream } from "@/lib/cli/progress";
import type { Stores } from "@/lib/store/stores";
import type { RevisionSummary } from "@/lib/store/catalog-store";
import { printList, tableDate, withoutJsonFlag } from "@/lib/cli/list-output";

interface CatalogCliContext {
  stores: Stores;
  print: (line: string) => void;
  printError: (line: string) => void;
  progress: ProgressStream;
  /** The rules a pull from a URL is held to, as on the catalog page. */
  production: CliContext["production"];
  catalogPullAllow: CliContext["catalogPullAllow"];
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

/** The articles of a file, counted ahead for the progress line: only when it is shown, and never on a pipe (such as
 * `<(zcat catalog.xml.gz)`), which can be read only once. */
async function articleTotal(context: CatalogCliContext, file: string): Promise<number | undefined> {
  if (!context.progress.isTTY) return undefined;
  const found = await stat(file).catch(() => undefined);
  return found?.isFile() ? countArticleTags(fileText(file)) : undefined;
}

/** Imports the file at the path `file`, or the text `pulled` from the URL that `file` then names. */
async function importFile(context: CatalogCliContext, file: string, pulled?: AsyncIterable<string>): Promise<void> {
  const total = pulled ? undefined : await articleTotal(context, file);
  const label = `catalogs import ${pulled ? file : path.basename(file)}`;
  const progress = progressReporter(context.progress, { label, noun: "article", total, print: context.print });
  const result = await progress.track((onProgress) =>
    importCatalog(context.stores, pulled ?? fileText(file), { onProgress }),
  );
  if (!result.ok) {
    progress.finish();
    // Every error of the file at once (up to the reader's limit), so that one round of fixes is enough.
    for (const error of result.errors) context.printError(`${file}:${error.line}: ${error.message}`);
    if (result.unreported) context.printError(`${file}: and ${counted(result.unreported, "more error")}`);
    throw new Error(`${file} was not imported (nothing was written)`);
  }
  progress.finish(
    `Imported revision ${result.revision} of catalog ${result.catalogId} (${result.resourceKey}) of supplier ${result.supplierId}: ${counted(result.articles, "article")}, not released yet.`,
  );
  context.print(
    `Release it with: npm run admin -- catalogs release ${result.supplierId} ${result.catalogId} ${result.revision}`,
  );
}

/**
 * A URL as the output names it: scheme, host and path, without user info, query or fragment, where a pre-signed link
 * carries its signature and a terminal's scrollback, a log or a CI job's output would keep it.
 */
function shownUrl(location: string): string {
  try {
    const url = new URL(location);
    return `${url.protocol}${url.host ? `//${url.host}` : ""}${url.pathname}`;
  } catch {
    return location.replace(/[?#].*$/s, "").replace(/\/\/[^/]*@/, "//");
  }
}

/** The file at a URL, fetched under the catalog page's rules and imported as a file is; a refusal names the URL. */
async function importUrl(context: CatalogCliContext, url: string): Promise<void> {
  const shown = shownUrl(url);
  try {
    await importFile(context, shown, (await pullCatalogFile(url, context)).text);
  } catch (error) {
    if (!(error instanceof PullRefused)) throw error;
    throw new Error(`${shown} was not imported: ${error.message}`, { cause: error });
  }
}

/** A row per revision, newest first within each catalog; as JSON, the catalogs with their revisions. */
async function listCatalogs(context: CatalogCliContext, supplierId: string, json: boolean): Promise<void> {
  const catalogs = await context.stores.catalogs.listOfSupplier(await supplierCompanyId(context.stores, supplierId));
  const stateOf = (revision: RevisionSummary) =>
    revision.released ? "released" : revision.complete ? "not released" : "importing";
  printList(context.print, json, {
    json: catalogs.map((catalog) => ({
      catalog_id: catalog.catalogId,
      resource_key: catalog.resourceKey,
      name: catalog.name,
      revisions: catalog.revisions.map((revision) => ({
        revision: revision.number,
        released: revision.released,
        complete: revision.complete,
        articles: revision.articles,
        published_at: revision.publishedAt.toISOString(),
        comment: revision.comment,
      })),
    })),
    header: ["CATALOG_ID", "RESOURCE_KEY", "REVISION", "STATE", "ARTICLES", "PUBLISHED", "COMMENT"],
    rows: catalogs.flatMap((catalog) =>
      catalog.revisions.map((revision) => [
        catalog.catalogId,
        catalog.resourceKey,
        String(revision.number),
        stateOf(revision),
        String(revision.articles),
        tableDate(revision.publishedAt),
        revision.comment,
      ]),
    ),
    empty: `Supplier ${supplierId} has no catalogs.`,
  });
}

export async function catalogCommand(context: CatalogCliContext, [command, ...rest]: string[]): Promise<void> {
  if (command === "import" && rest[0] === "--url") {
    const [url] = expectArgs(rest.slice(1), "catalogs import --url <https-url>");
    await importUrl(context, url);
  } else if (command === "import") {
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
    const { json, args } = withoutJsonFlag(rest);
    const [supplierId] = expectArgs(args, "catalogs list <supplierID> [--json]");
    await listCatalogs(context, supplierId, json);
  } else {
    throw unknownCommand("catalogs", command, ["import", "release", "list"]);
  }
}
