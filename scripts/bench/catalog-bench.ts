/**
 * The catalog part of `npm run bench`: downloading a 200,000-article sub-catalog from the running server (articles/s,
 * MB/s, time to first byte, the server's peak memory growth) next to writing the same XML from the same rows to
 * /dev/null in one process; and getCatalogInfos with 500 suppliers.
 */
import { createWriteStream, readFileSync } from "node:fs";
import type { ChildProcess } from "node:child_process";
import type { DatabaseTarget } from "@/lib/db/database-url";
import { getPrismaClient } from "@/lib/db/prisma";
import { ARTICLE_BATCH_SIZE, articleXml, prepareSubCatalog, readArticleBatch } from "@/lib/catalog/sub-catalog";
import { addLargeRevision, addSuppliers, LARGE_REVISION } from "./catalog-fixtures";

export const ARTICLES = 200_000;

/** Resident memory of a process in bytes (Linux). */
function residentBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"));
  return Number(line?.replace(/\D+/g, "") ?? 0) * 1024;
}

export async function prepareCatalogBench(target: DatabaseTarget): Promise<void> {
  const db = getPrismaClient(target);
  await addLargeRevision(db, ARTICLES);
  await addSuppliers(db, 500);
}

/** The raw rate: the same XML written from the same rows, already in memory, to /dev/null in one process. */
export async function rawWriteRate(target: DatabaseTarget): Promise<{ articlesPerSecond: number; bytes: number }> {
  const db = getPrismaClient(target);
  const prepared = await prepareSubCatalog(db, { companyId: "demo-company-lens", catalogKey: "DLAG-DE", revision: LARGE_REVISION });
  const rows = [];
  for (let lastId: string | undefined; ; ) {
    const batch = await readArticleBatch(db, prepared, lastId);
    if (batch.length === 0) break;
    lastId = batch[batch.length - 1].id;
    rows.push(...batch);
  }
  const sink = createWriteStream("/dev/null");
  const started = performance.now();
  let bytes = 0;
  for (let offset = 0; offset < rows.length; offset += ARTICLE_BATCH_SIZE) {
    const chunk = rows.slice(offset, offset + ARTICLE_BATCH_SIZE).map((article) => articleXml(article, prepared)).join("");
    bytes += Buffer.byteLength(chunk);
    if (!sink.write(chunk)) await new Promise<void>((resolve) => sink.once("drain", () => resolve()));
  }
  sink.end();
  return { articlesPerSecond: Math.round((rows.length * 1000) / (performance.now() - started)), bytes };
}

export interface DownloadMeasurement {
  articlesPerSecond: number;
  megabytesPerSecond: number;
  firstByteMs: number;
  peakGrowthMb: number;
  articles: number;
}

export async function measureDownload(baseUrl: string, server: ChildProcess): Promise<DownloadMeasurement> {
  const pid = server.pid!;
  const baseline = residentBytes(pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(pid))), 20);
  const started = performance.now();
  const response = await fetch(`${baseUrl}/getSubCatalog.ashx?companyID=demo-company-lens&catalogResourceKey=DLAG-DE&revision=${LARGE_REVISION}`);
  const reader = response.body!.getReader();
  let firstByteMs = 0;
  let bytes = 0;
  let articles = 0;
  let carry = ""; // an element name may be split across chunks
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (bytes === 0) firstByteMs = performance.now() - started;
    bytes += value.length;
    const text = carry + Buffer.from(value).toString("latin1");
    articles += text.split("</Article>").length - 1;
    carry = text.slice(-9);
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  return { articlesPerSecond: Math.round(articles / seconds), megabytesPerSecond: bytes / 1e6 / seconds, firstByteMs: Math.round(firstByteMs), peakGrowthMb: (peak - baseline) / 1e6, articles };
}
