/**
 * Content codings (RFC 9110 §8.4, §12.5.3): which coding of a body a request's Accept-Encoding allows, and the body
 * compressed in it as it is produced. Levels were chosen by measurement (docs/performance.md): compressing must never
 * make a download slower than sending it plain over a 100 Mbit/s line.
 */
import { constants, createBrotliCompress, createGzip, type BrotliCompress, type Gzip } from "node:zlib";

export type ContentCoding = "br" | "gzip" | "identity";

/** Ours, in the order preferred when the client ranks several equally. */
export const CODINGS: readonly ContentCoding[] = ["br", "gzip", "identity"];

export const GZIP_LEVEL = 4;
export const BROTLI_QUALITY = 5;

/** Bodies shorter than this go out plain: compressing them saves less than the coding's own framing costs. */
export const MIN_COMPRESSED_BYTES = 1024;

/** Below the smallest q-value a client can send (0.001). */
const UNNAMED_IDENTITY = 0.0001;

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
export function negotiateCoding(
  header: string | null,
  offered: readonly ContentCoding[] = CODINGS,
): ContentCoding | undefined {
  if (header === null) return "identity";
  const ranks = rankings(header);
  // Identity is acceptable unless refused, but ranks below every coding the client names.
  const rankOf = (coding: ContentCoding): number =>
    ranks.get(coding) ?? (ranks.has("*") ? ranks.get("*")! : coding === "identity" ? UNNAMED_IDENTITY : 0);
  let best: ContentCoding | undefined;
  for (const coding of offered) {
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

/** Compresses the chunk and flushes, so that every chunk of the source gives output at once (the first byte too). */
function compressChunk(zlib: BrotliCompress | Gzip, chunk: Uint8Array, coding: "br" | "gzip"): Promise<void> {
  zlib.write(chunk);
  const flush = coding === "br" ? constants.BROTLI_OPERATION_FLUSH : constants.Z_SYNC_FLUSH;
  return new Promise((resolve) => zlib.flush(flush, resolve));
}

/**
 * The body compressed as it is read, pulled: the source is read only when the reader wants more, so that a reader
 * who stops (or goes away, cancelling) stops the source at once. A failing source fails the result.
 */
export function compressedStream(
  source: ReadableStream<Uint8Array>,
  coding: "br" | "gzip",
): ReadableStream<Uint8Array> {
  const zlib = compressor(coding);
  const reader = source.getReader();
  const output: Buffer[] = [];
  zlib.on("data", (chunk: Buffer) => output.push(chunk));
  const ended = new Promise<void>((resolve, reject) => zlib.once("end", resolve).once("error", reject));
  ended.catch(() => {}); // a compressor failure fails the pull that waits for it
  const take = () => {
    const chunk = output.length === 1 ? output[0] : Buffer.concat(output);
    output.length = 0;
    return chunk;
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        for (;;) {
          const next = await reader.read();
          if (next.done) {
            zlib.end();
            await ended;
            if (output.length > 0) controller.enqueue(take());
            return controller.close();
          }
          await compressChunk(zlib, next.value, coding);
          if (output.length > 0) return controller.enqueue(take());
        }
      } catch (error) {
        // The compressor's native memory goes now, not when it is collected; the source reads nothing more.
        zlib.destroy();
        reader.cancel(error).catch(() => {});
        throw error;
      }
    },
    cancel(reason) {
      zlib.destroy();
      return reader.cancel(reason);
    },
  });
}
