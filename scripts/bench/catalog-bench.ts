/**
 * The catalog part of `npm run bench`: downloading a 200,000-article sub-catalog from the running server (articles/s,
 * MB/s, time to first byte, the server's peak memory growth) next to writing the same XML from the same rows to
 * /dev/null in one process; importing a 200,000-article master catalog file with the operator CLI (time, peak
 * memory next to the same CLI listing catalogs); and getCatalogInfos with 500 suppliers.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { get, type IncomingMessage } from "node:http";
import { createBrotliDecompress, createGunzip } from "node:zlib";
import { createWriteStream, statSync } from "node:fs";
import { once } from "node:events";
import type { DatabaseTarget } from "@/lib/config/database-url";
import { getPrismaClient } from "@/lib/db/prisma";
import { prismaStores } from "@/lib/store/stores";
import { ARTICLE_PAGE_SIZE, readArticlePage, type ArticleRow } from "@/lib/db/statements/catalog-articles";
import { articleXml, prepareSubCatalog } from "@/lib/catalog/sub-catalog";
import { addLargeRevision, addSuppliers, LARGE_REVISION } from "./catalog-fixtures";
import { residentBytes, sized } from "./runner";

export const ARTICLES = sized(200_000, 2_000);

export async function prepareCatalogBench(target: DatabaseTarget): Promise<void> {
  const db = getPrismaClient(target);
  await addLargeRevision(db, ARTICLES);
  await addSuppliers(db, 500);
}

/** Runs of each measurement; the median is reported, as single runs on this kind of machine vary by a third. */
export const RUNS = sized(3, 1);

function median<T>(runs: T[], value: (run: T) => number): T {
  return [...runs].sort((a, b) => value(a) - value(b))[Math.floor(runs.length / 2)];
}

/** The raw rate: the same XML written from the same rows, already in memory, to /dev/null in one process. */
export async function rawWriteRate(
  target: DatabaseTarget,
): Promise<{ articlesPerSecond: number; bytes: number; pages: Buffer[] }> {
  const db = getPrismaClient(target);
  const prepared = await prepareSubCatalog(
    prismaStores(db),
    { supplierCompanyId: "demo-company-lens", catalogKey: "DLAG-DE", revision: LARGE_REVISION },
    { kind: "public" },
  );
  const rows: ArticleRow[] = [];
  for (
    let page = await readArticlePage(db, prepared);
    page.length > 0;
    page = await readArticlePage(db, prepared, page[page.length - 1])
  )
    rows.push(...page);
  const runs = [];
  for (let run = 0; run < RUNS; run++) {
    const sink = createWriteStream("/dev/null");
    const started = performance.now();
    let bytes = 0;
    for (let offset = 0; offset < rows.length; offset += ARTICLE_PAGE_SIZE) {
      const chunk = rows
        .slice(offset, offset + ARTICLE_PAGE_SIZE)
        .map((article) => articleXml(article, prepared))
        .join("");
      bytes += Buffer.byteLength(chunk);
      if (!sink.write(chunk)) await new Promise<void>((resolve) => sink.once("drain", () => resolve()));
    }
    sink.end();
    runs.push({ articlesPerSecond: Math.round((rows.length * 1000) / (performance.now() - started)), bytes });
  }
  // The document's pages as the server writes them, for the compression levels (not timed).
  const pages: Buffer[] = [];
  for (let offset = 0; offset < rows.length; offset += ARTICLE_PAGE_SIZE)
    pages.push(
      Buffer.from(
        rows
          .slice(offset, offset + ARTICLE_PAGE_SIZE)
          .map((article) => articleXml(article, prepared))
          .join(""),
      ),
    );
  return { ...median(runs, (run) => run.articlesPerSecond), pages };
}

export interface DownloadMeasurement {
  articlesPerSecond: number;
  /** of plain XML, whatever the coding on the wire */
  megabytesPerSecond: number;
  plainMegabytes: number;
  wireMegabytes: number;
  firstByteMs: number;
  peakGrowthMb: number;
  articles: number;
}

/**
 * Samples the server's resident memory every 20 ms from now (after collecting this process's own garbage);
 * `stop()` ends sampling and gives the peak growth in MB.
 */
export function sampleMemory(server: ChildProcess): { stop: () => number } {
  const pid = server.pid!;
  const baseline = residentBytes(pid);
  let peak = baseline;
  (globalThis as { gc?: () => void }).gc?.();
  const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(pid))), 20);
  return {
    stop: () => {
      clearInterval(sampler);
      return (peak - baseline) / 1e6;
    },
  };
}

export const SUB_CATALOG_PATH = `/getSubCatalog.ashx?companyID=demo-company-lens&catalogResourceKey=DLAG-DE&revision=${LARGE_REVISION}`;

export type Coding = "identity" | "gzip" | "br";

/** The median of RUNS downloads by rate; first byte and peak memory are the worst of them. */
export async function measureDownloads(
  baseUrl: string,
  server: ChildProcess,
  coding: Coding = "identity",
): Promise<DownloadMeasurement> {
  const runs = [];
  for (let run = 0; run < RUNS; run++) runs.push(await measureDownload(baseUrl, server, coding));
  return {
    ...median(runs, (run) => run.articlesPerSecond),
    firstByteMs: Math.max(...runs.map((run) => run.firstByteMs)),
    peakGrowthMb: Math.max(...runs.map((run) => run.peakGrowthMb)),
    articles: Math.min(...runs.map((run) => run.articles)),
  };
}

/** Article end tags in a stream of XML, counted on bytes (an end tag may be split across chunks). */
async function countArticles(xml: AsyncIterable<Buffer>): Promise<{ articles: number; bytes: number }> {
  const endTag = Buffer.from("</Article>");
  let carry = Buffer.alloc(0);
  let articles = 0;
  let bytes = 0;
  for await (const value of xml) {
    bytes += value.length;
    const chunk = carry.length > 0 ? Buffer.concat([carry, value]) : value;
    for (let at = chunk.indexOf(endTag); at !== -1; at = chunk.indexOf(endTag, at + endTag.length)) articles++;
    carry = Buffer.from(chunk.subarray(Math.max(0, chunk.length - endTag.length + 1)));
  }
  return { articles, bytes };
}

/** One download as optician software makes it, asking for `coding`; the body is decompressed here to count. */
async function measureDownload(baseUrl: string, server: ChildProcess, coding: Coding): Promise<DownloadMeasurement> {
  // The measuring process's own garbage (the raw-rate rows) must not be collected in the middle of a measurement.
  const memory = sampleMemory(server);
  const started = performance.now();
  const response = await new Promise<IncomingMessage>((resolve, reject) =>
    get(`${baseUrl}${SUB_CATALOG_PATH}`, { headers: { "accept-encoding": coding } }, resolve).on("error", reject),
  );
  const sent = response.headers["content-encoding"] ?? "identity";
  if (sent !== coding) throw new Error(`asked for ${coding}, the server sent ${sent}`);
  let firstByteMs = 0;
  let wireBytes = 0;
  response.on("data", (chunk: Buffer) => {
    if (wireBytes === 0) firstByteMs = performance.now() - started;
    wireBytes += chunk.length;
  });
  const plain =
    coding === "gzip"
      ? response.pipe(createGunzip())
      : coding === "br"
        ? response.pipe(createBrotliDecompress())
        : response;
  const { articles, bytes } = await countArticles(plain);
  const seconds = (performance.now() - started) / 1000;
  return {
    articlesPerSecond: Math.round(articles / seconds),
    megabytesPerSecond: bytes / 1e6 / seconds,
    plainMegabytes: bytes / 1e6,
    wireMegabytes: wireBytes / 1e6,
    firstByteMs: Math.round(firstByteMs),
    peakGrowthMb: memory.stop(),
    articles,
  };
}

/** Resuming at half the document with If-Range, the length known: what generating and skipping the first half costs. */
export async function measureResume(baseUrl: string): Promise<{ resumeMs: number; fullMs: number; bytes: number }> {
  const timed = async (headers: Record<string, string>) => {
    const started = performance.now();
    const response = await fetch(`${baseUrl}${SUB_CATALOG_PATH}`, { headers });
    const body = await response.arrayBuffer();
    return { ms: performance.now() - started, response, bytes: body.byteLength };
  };
  // The plain body: only it has byte ranges (fetch would otherwise ask for a compressed one).
  const full = await timed({ "accept-encoding": "identity" });
  const half = Math.floor(full.bytes / 2);
  const etag = full.response.headers.get("etag")!;
  const resumed = await timed({ range: `bytes=${half}-`, "if-range": etag, "accept-encoding": "identity" });
  if (resumed.response.status !== 206 || resumed.bytes !== full.bytes - half)
    throw new Error(`the resumed download answered ${resumed.response.status} with ${resumed.bytes} bytes`);
  return { resumeMs: Math.round(resumed.ms), fullMs: Math.round(full.ms), bytes: full.bytes };
}

/** A master catalog file (docs/catalog-format.md) of `count` articles, written as a stream; its size in bytes. */
export async function writeCatalogFile(file: string, count: number): Promise<number> {
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, "drain");
  };
  await write(`<?xml version="1.0" encoding="utf-8"?>
<Catalog supplierID="DLAG" catalogID="catalog_BENCH.xml" resourceKey="DLAG-BENCH" name="Bench catalog" language="de" format="SPECTARIS" formatVersion="2.1">
  <Revision comment="bench" validStartDate="2027-01-01"/>
  <ValidCountries><ValidCountry>DE</ValidCountry></ValidCountries>
  <ProductGroups><ProductGroup>Brillengläser</ProductGroup></ProductGroups>
  <Articles>
`);
  for (let index = 0; index < count; index++) {
    await write(`    <Article articleNumber="I-${index}" customerGroup="${index % 4 === 0 ? 5 : 0}">
      <Name>Einstärkenglas 1.${index % 10} Typ ${index}</Name>
      <PurchasePrice>${10 + (index % 90)}.${String(index % 100).padStart(2, "0")}</PurchasePrice>
      <RetailPrice>49.00</RetailPrice>
    </Article>
`);
  }
  await write("  </Articles>\n</Catalog>\n");
  out.end();
  await once(out, "finish");
  return statSync(file).size;
}

export interface CliRun {
  seconds: number;
  peakMb: number;
  code: number | null;
  output: string;
}

/**
 * The JavaScript heap the import runs in: far less than the objects of a 40 MB file would take, had it been read whole.
 * The CLI itself takes about 32 MB of it before reading anything (21 MB of that the password dictionaries).
 */
export const IMPORT_HEAP_MB = 96;

/** Runs `npm run admin -- <args>` as its own Node process, sampling its resident memory. */
export async function runAdmin(args: string[], env: Record<string, string>, nodeFlags: string[] = []): Promise<CliRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeFlags, "--import", "tsx", "scripts/admin.ts", ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let peak = 0;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, residentBytes(child.pid!));
    } catch {
      // exited between two samples
    }
  }, 20);
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const [code] = (await once(child, "exit")) as [number | null];
  clearInterval(sampler);
  return { seconds: (performance.now() - started) / 1000, peakMb: peak / 1e6, code, output };
}
