/**
 * Content codings (RFC 9110 §8.4, §12.5.3): which coding of a body a request's Accept-Encoding allows, and the body
 * compressed in it as it is produced. Levels were chosen by measurement (docs/performance.md): compressing must never
 * make a download slower than sending it plain over a 100 Mbit/s line.
 */
import { pipeline, Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { constants, createBrotliCompress, createGzip, type BrotliCompress, type Gzip } from "node:zlib";

export type ContentCoding = "br" | "gzip" | "identity";

/** Ours, in the order preferred when the client ranks several equally. */
const CODINGS: ContentCoding[] = ["br", "gzip", "identity"];

export const GZIP_LEVEL = 4;
export const BROTLI_QUALITY = 4;

/** Bodies shorter than this go out plain: compressing them saves less than the coding's own framing costs. */
export const MIN_COMPRESSED_BYTES = 1024;

const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** The q-value of each coding named, `*` included; a malformed entry or q-value is left out, as if not sent. */
function rankings(header: string): Map<string, number> {
  const ranks = new Map<string, number>();
  for (const entry of header.split(",")) {
    const [name, ...parameters] = entry.split(";").map((part) => part.trim().toLowerCase());
    if (!/^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(name ?? "")) continue;
    let q = 1;
    for (const parameter of parameters) {
      const [key, value] = parameter.split("=").map((part) => part.trim());
      if (key === "q") q = QVALUE.test(value ?? "") ? Number(value) : Number.NaN;
    }
    if (!Number.isNaN(q)) ranks.set(name, Math.max(q, ranks.get(name) ?? 0));
  }
  return ranks;
}

/**
 * The coding to send, or undefined when the header rules out every one (the answer is then 406). Without the header,
 * any coding is acceptable and the body goes plain; identity is acceptable unless refused by name or by `*;q=0`.
 */
export function negotiateCoding(header: string | null): ContentCoding | undefined {
  if (header === null) return "identity";
  const ranks = rankings(header);
  const rankOf = (coding: ContentCoding): number =>
    ranks.get(coding) ?? (ranks.has("*") ? ranks.get("*")! : coding === "identity" ? 1 : 0);
  let best: ContentCoding | undefined;
  for (const coding of CODINGS) {
    const rank = rankOf(coding);
    if (rank > 0 && (best === undefined || rank > rankOf(best))) best = coding;
  }
  return best;
}

function compressor(coding: "br" | "gzip"): BrotliCompress | Gzip {
  if (coding === "gzip") return createGzip({ level: GZIP_LEVEL });
  return createBrotliCompress({
    params: {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
}

/**
 * The body compressed as it is read. Cancelling the result (the client went away) cancels the source at once, so
 * that it reads nothing more; a failing source fails the result.
 */
export function compressedStream(
  source: ReadableStream<Uint8Array>,
  coding: "br" | "gzip",
): ReadableStream<Uint8Array> {
  const zlib = compressor(coding);
  pipeline(Readable.fromWeb(source as NodeReadableStream<Uint8Array>), zlib, () => {
    // The error reaches the reader through the compressor, which the pipeline destroys with it.
  });
  return Readable.toWeb(zlib) as ReadableStream<Uint8Array>;
}
