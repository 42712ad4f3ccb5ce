/**
 * Compression levels for catalog downloads, measured on the sub-catalog XML itself: input MB/s and ratio per gzip
 * level and Brotli quality, in one process on the server core's kind of work (no server). The levels OptiGate uses
 * must compress faster than a 100 Mbit/s line carries the plain body, so compressing never slows a download.
 */
import { constants, createBrotliCompress, createGzip, type BrotliCompress, type Gzip } from "node:zlib";
import { BROTLI_QUALITY, GZIP_LEVEL } from "@/lib/http/content-coding";

/** 100 Mbit/s in MB/s. */
export const LINE_MEGABYTES_PER_SECOND = 12.5;

export interface LevelMeasurement {
  coding: "gzip" | "br";
  level: number;
  megabytesPerSecond: number;
  ratio: number;
  chosen: boolean;
}

async function compressAll(zlib: BrotliCompress | Gzip, pages: Buffer[]): Promise<number> {
  let compressed = 0;
  zlib.on("data", (chunk: Buffer) => (compressed += chunk.length));
  const ended = new Promise((resolve) => zlib.once("end", resolve));
  for (const page of pages) if (!zlib.write(page)) await new Promise((resolve) => zlib.once("drain", resolve));
  zlib.end();
  await ended;
  return compressed;
}

const compressorOf = (coding: "gzip" | "br", level: number) =>
  coding === "gzip"
    ? createGzip({ level })
    : createBrotliCompress({
        params: { [constants.BROTLI_PARAM_QUALITY]: level, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
      });

/** Every level worth considering, each over the same pages (the document as the server writes it, page by page). */
export async function measureLevels(pages: Buffer[]): Promise<LevelMeasurement[]> {
  const plainBytes = pages.reduce((sum, page) => sum + page.length, 0);
  const candidates: ["gzip" | "br", number][] = [
    ["gzip", 1],
    ["gzip", 4],
    ["gzip", 6],
    ["gzip", 9],
    ["br", 1],
    ["br", 4],
    ["br", 5],
    ["br", 6],
  ];
  const measurements: LevelMeasurement[] = [];
  for (const [coding, level] of candidates) {
    const started = performance.now();
    const compressed = await compressAll(compressorOf(coding, level), pages);
    const seconds = (performance.now() - started) / 1000;
    measurements.push({
      coding,
      level,
      megabytesPerSecond: plainBytes / 1e6 / seconds,
      ratio: plainBytes / compressed,
      chosen: level === (coding === "gzip" ? GZIP_LEVEL : BROTLI_QUALITY),
    });
  }
  return measurements;
}

export function printLevels(measurements: LevelMeasurement[]): void {
  for (const m of measurements)
    console.log(
      `  ${`${m.coding} level ${m.level}${m.chosen ? " (used)" : ""}`.padEnd(24)} ${m.megabytesPerSecond.toFixed(1).padStart(6)} MB/s of XML in, ratio ${m.ratio.toFixed(1)}:1, ${m.megabytesPerSecond >= LINE_MEGABYTES_PER_SECOND ? "faster" : "SLOWER"} than a 100 Mbit/s line`,
    );
}
