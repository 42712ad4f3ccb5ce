/**
 * `npm run bench -- catalogs`: getSubCatalog of 200,000 articles plain, gzip and br against writing the same XML to
 * /dev/null (the in-memory rate, same run), compression levels, resuming, 304 revalidations; the CLI importing a file
 * of 200,000 articles against the same CLI listing catalogs; getCatalogInfos with 500 suppliers; the API's catalogs.
 */
import path from "node:path";
import type { DatabaseTarget } from "@/lib/config/database-url";
import {
  ARTICLES,
  IMPORT_HEAP_MB,
  measureDownloads,
  measureResume,
  prepareCatalogBench,
  RUNS,
  rawWriteRate,
  runAdmin,
  SUB_CATALOG_PATH,
  writeCatalogFile,
  type CliRun,
  type Coding,
  type DownloadMeasurement,
} from "./catalog-bench";
import { ARTICLE_PAGE_LIMIT, benchApi, type ArticlePagesMeasurement } from "./api-bench";
import { LINE_MEGABYTES_PER_SECOND, measureLevels, printLevels } from "./compression-levels";
import { prepareBenchFixtures } from "./fixtures";
import { measure, result, SECRET_KEY, startServer, stop, OPTIGATE_SERVER } from "./runner";

interface CatalogResult {
  provider: string;
  raw: number;
  downloads: Record<Coding, DownloadMeasurement>;
  importRun: CliRun;
  listRun: CliRun;
  pages: ArticlePagesMeasurement;
}
const catalogResults: CatalogResult[] = [];

const CODINGS: Coding[] = ["identity", "gzip", "br"];

async function importCatalog(target: DatabaseTarget, directory: string) {
  const cliEnv = { DATABASE_URL: target.url, SECRET_KEY, PUBLIC_URL: "http://localhost:3000", NODE_ENV: "production" };
  const file = path.join(directory, `import-${target.provider}.xml`);
  const fileBytes = await writeCatalogFile(file, ARTICLES);
  const listRun = await runAdmin(["catalogs", "list", "DLAG"], cliEnv);
  const importRun = await runAdmin(["catalogs", "import", file], cliEnv, [`--max-old-space-size=${IMPORT_HEAP_MB}`]);
  if (importRun.code !== 0)
    throw new Error(`the bench import failed (exit ${importRun.code}):\n${importRun.output.slice(-2000)}`);
  console.log(
    `  ${`${target.provider} import ${ARTICLES} articles (CLI)`.padEnd(48)} ${importRun.seconds.toFixed(1)} s, ${Math.round(ARTICLES / importRun.seconds)} articles/s, ${(fileBytes / 1e6).toFixed(1)} MB file, JavaScript heap capped at ${IMPORT_HEAP_MB} MB, peak resident memory ${importRun.peakMb.toFixed(1)} MB (CLI listing catalogs: ${listRun.peakMb.toFixed(1)} MB)`,
  );
  return { importRun, listRun };
}

function printDownload(provider: string, coding: Coding, download: DownloadMeasurement, raw: number): void {
  console.log(
    `  ${`${provider} getSubCatalog ${ARTICLES} articles, ${coding}`.padEnd(48)} ${download.megabytesPerSecond.toFixed(1)} MB/s of XML (${download.articlesPerSecond} articles/s, ${(download.articlesPerSecond / raw).toFixed(2)} of in-memory), ${download.plainMegabytes.toFixed(1)} MB sent as ${download.wireMegabytes.toFixed(2)} MB (${(download.plainMegabytes / download.wireMegabytes).toFixed(1)}:1), first byte ${download.firstByteMs} ms, peak memory +${download.peakGrowthMb.toFixed(1)} MB`,
  );
}

export async function benchCatalogs(target: DatabaseTarget, directory: string): Promise<void> {
  // One refresh token: the API part exchanges it for a user's access token.
  const fixtures = await prepareBenchFixtures(target, "ES256", 0, 1);
  await prepareCatalogBench(target);
  const raw = await rawWriteRate(target);
  console.log(
    `  ${`${target.provider} in-memory XML writing (baseline)`.padEnd(48)} ${raw.articlesPerSecond} articles/s (${((raw.bytes / 1e6) * (raw.articlesPerSecond / ARTICLES)).toFixed(1)} MB/s), median of ${RUNS}`,
  );
  if (target.provider === "sqlite") printLevels(await measureLevels(raw.pages));
  const { child, baseUrl } = await startServer(OPTIGATE_SERVER, target, "ES256");
  try {
    // Warm-up: the first request to each route loads its code.
    await fetch(`${baseUrl}/getCatalogInfos.ashx`).then((r) => r.text());
    await fetch(`${baseUrl}/getSubCatalog.ashx?companyID=demo-company-lens&catalogResourceKey=DLAG-DE&revision=2`).then(
      (r) => r.text(),
    );
    const downloads = {} as Record<Coding, DownloadMeasurement>;
    for (const coding of CODINGS) {
      downloads[coding] = await measureDownloads(baseUrl, child, coding);
      printDownload(target.provider, coding, downloads[coding], raw.articlesPerSecond);
    }
    const resume = await measureResume(baseUrl);
    console.log(
      `  ${`${target.provider} resume at half (If-Range)`.padEnd(48)} ${resume.resumeMs} ms for the second half of ${(resume.bytes / 1e6).toFixed(1)} MB (the whole: ${resume.fullMs} ms)`,
    );
    const etag = (
      await fetch(`${baseUrl}${SUB_CATALOG_PATH}`, { method: "GET", headers: { range: "bytes=0-0" } })
    ).headers.get("etag")!;
    await measure(`${target.provider} getSubCatalog revalidation (304)`, baseUrl, {
      method: "GET",
      path: SUB_CATALOG_PATH,
      headers: { "if-none-match": etag, "accept-encoding": "identity" },
      expectStatus: 304,
    });
    const { importRun, listRun } = await importCatalog(target, directory);
    const pages = await benchApi(baseUrl, child, target.provider, fixtures.refreshTokens[0], measure);
    catalogResults.push({
      provider: target.provider,
      raw: raw.articlesPerSecond,
      downloads,
      importRun,
      listRun,
      pages,
    });
    await measure(`${target.provider} getCatalogInfos, 500 suppliers, anonymous`, baseUrl, {
      method: "GET",
      path: "/getCatalogInfos.ashx",
    });
  } finally {
    await stop(child);
  }
}

type Check = (label: string, ok: boolean) => void;

function reportDownloads({ provider, raw, downloads }: CatalogResult, check: Check): void {
  for (const [coding, share] of [
    ["identity", 0.8],
    ["gzip", 0.8],
    ["br", 0.6],
  ] as const) {
    const download = downloads[coding];
    check(
      `${provider} ${coding}: getSubCatalog >= ${share} of the in-memory writing rate (${(download.articlesPerSecond / raw).toFixed(2)})`,
      download.articlesPerSecond >= share * raw,
    );
  }
  for (const coding of CODINGS) {
    const download = downloads[coding];
    check(
      `${provider} ${coding}: all ${ARTICLES} articles (${download.articles}), first byte < 200 ms (${download.firstByteMs} ms), memory growth < 100 MB (${download.peakGrowthMb.toFixed(1)} MB)`,
      download.articles === ARTICLES && download.firstByteMs < 200 && download.peakGrowthMb < 100,
    );
    if (coding !== "identity")
      check(
        `${provider} ${coding}: no slower than plain over a 100 Mbit/s line (${download.megabytesPerSecond.toFixed(1)} MB/s of XML >= ${LINE_MEGABYTES_PER_SECOND})`,
        download.megabytesPerSecond >= LINE_MEGABYTES_PER_SECOND,
      );
  }
  const revalidation = result(`${provider} getSubCatalog revalidation (304)`)!;
  check(`${provider}: 304 revalidations >= 2,000 req/s (${revalidation.rps})`, revalidation.rps >= 2000);
}

export function reportCatalogs(check: Check): void {
  for (const entry of catalogResults) {
    const { provider, importRun, listRun, pages } = entry;
    const rate = (name: string) => result(`${provider} ${name}`)!;
    const tokenRate = rate("token endpoint client_credentials (API baseline)");
    for (const kind of ["client", "optician"]) {
      const list = rate(`GET /v2/catalogs?limit=20, ${kind} token`);
      check(
        `${provider}: GET /v2/catalogs (20), ${kind} token >= token endpoint client_credentials (${list.rps} vs ${tokenRate.rps} req/s, ${(list.rps / tokenRate.rps).toFixed(2)}), p99 < 50 ms (${list.p99} ms)`,
        list.rps >= tokenRate.rps && list.p99 < 50,
      );
    }
    const anonymous = rate("getCatalogInfos, 500 suppliers, anonymous");
    check(
      `${provider}: getCatalogInfos anonymous >= 1,000 req/s (${anonymous.rps}), p99 < 100 ms (${anonymous.p99} ms)`,
      anonymous.rps >= 1000 && anonymous.p99 < 100,
    );
    for (const name of ["getCatalogInfos, 500 suppliers, ticket", "GET /v2/catalogs?limit=500, optician token"]) {
      const personal = rate(name);
      check(
        `${provider}: ${name} >= 300 req/s (${personal.rps}), p99 < 100 ms (${personal.p99} ms)`,
        personal.rps >= 300 && personal.p99 < 100,
      );
    }
    check(
      `${provider}: JSON article pages (${ARTICLE_PAGE_LIMIT}) >= 150,000 articles/s (${pages.articlesPerSecond}), all ${ARTICLES} read (${pages.articles}), memory growth < 100 MB (${pages.peakGrowthMb.toFixed(1)} MB)`,
      pages.articlesPerSecond >= 150_000 && pages.articles === ARTICLES && pages.peakGrowthMb < 100,
    );
    reportDownloads(entry, check);
    const importGrowth = importRun.peakMb - listRun.peakMb;
    check(
      `${provider}: import of ${ARTICLES} articles in a ${IMPORT_HEAP_MB} MB heap, resident memory < 100 MB over the idle CLI (${importGrowth.toFixed(1)} MB)`,
      importGrowth < 100,
    );
  }
}
