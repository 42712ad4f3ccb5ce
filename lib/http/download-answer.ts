/**
 * The answer to a GET of a download (a sub-catalog, the catalog list, an API article page): the content coding the
 * client accepts, a strong validator per coding, 304 for a matching If-None-Match or If-Modified-Since before the body
 * is made, and a single byte range of the plain body (206, 416 past its end). For clients: docs/catalog-services.md.
 */
import { parseRangeHeader, resolveRange, slicedStream } from "@/lib/http/byte-ranges";
import {
  CODINGS,
  compressedStream,
  MIN_COMPRESSED_BYTES,
  negotiateCoding,
  type ContentCoding,
} from "@/lib/http/content-coding";
import { matchesEntityTag } from "@/lib/http/entity-tags";
import { isFrontRequest } from "@/lib/http/front-requests";
import { markStreamed, textResponse } from "@/lib/http/streamed-response";

export interface Download {
  /** the opaque part of the plain body's strong entity tag; a coded body's tag adds `-<coding>` */
  tag: string;
  lastModified?: Date;
  cacheControl: string;
  contentType: string;
  /**
   * the plain body, made only when the answer needs it (not for a 304): a text (or its UTF-8 bytes, when they are
   * kept encoded), or a stream and its length
   */
  body: { text: () => string | Buffer | Promise<string | Buffer> } | PlainStream;
}

/** A plain body made as a stream: its length, and where known a stream from near a byte offset (for ranges). */
interface PlainStream {
  stream: () => ReadableStream<Uint8Array>;
  /** `caller`: the request's signal, which stops the work when the caller goes away before the answer */
  length: (caller?: AbortSignal) => Promise<number>;
  /** the body from `offset` or a little before it: the stream and the offset it starts at */
  streamFrom?: (offset: number) => { stream: ReadableStream<Uint8Array>; offset: number };
}

/** Behind Next.js alone, which drops Content-Encoding (lib/http/front-requests.ts). */
const PLAIN_ONLY: readonly ContentCoding[] = ["identity"];

const tagOf = (download: Download, coding: ContentCoding) =>
  coding === "identity" ? `"${download.tag}"` : `"${download.tag}-${coding}"`;

/** HTTP dates have whole seconds. */
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** An IMF-fixdate (RFC 9110 §5.6.7) in milliseconds; anything else (the obsolete forms included) is no date. */
function httpDate(value: string | null): number | undefined {
  if (value === null || !/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(value))
    return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}

/**
 * RFC 9110 §13.2.2: If-None-Match decides when present; If-Modified-Since only without it, and only a valid date not
 * in the future. The tag the 304 names: the one that matched (a cache finds its stored answer by it), or this coding's.
 */
function notModified(request: Request, download: Download, coding: ContentCoding): string | undefined {
  const noneMatch = request.headers.get("if-none-match");
  if (noneMatch !== null) {
    // Every coding of one content is as fresh as another: a tag of any of them revalidates the content.
    const current = [coding, ...CODINGS.filter((other) => other !== coding)].map((other) => tagOf(download, other));
    return current.find((tag) => matchesEntityTag(noneMatch, tag, "weak"));
  }
  const since = httpDate(request.headers.get("if-modified-since"));
  const fresh =
    download.lastModified !== undefined &&
    since !== undefined &&
    since <= Date.now() &&
    seconds(download.lastModified) <= since / 1000;
  return fresh ? tagOf(download, coding) : undefined;
}

/**
 * If-Range (§13.1.5) holds only when it names the plain body's strong tag. A date is not honoured: with whole seconds
 * it cannot tell two versions of one second apart, and a wrong match would join parts of two documents.
 */
function rangeStillValid(request: Request, download: Download): boolean {
  const ifRange = request.headers.get("if-range");
  return ifRange === null || matchesEntityTag(ifRange, tagOf(download, "identity"), "strong");
}

/** The plain body: a text, with its bytes when a range or compression needs them; otherwise its stream. */
type PlainBody = { text: string | Buffer; bytes: Uint8Array; length: number } | PlainStream;

async function plainBody(download: Download): Promise<PlainBody> {
  if (!("text" in download.body)) return download.body;
  const text = await download.body.text();
  let bytes = typeof text === "string" ? undefined : text;
  return {
    text,
    get bytes() {
      return (bytes ??= Buffer.from(text));
    },
    length: Buffer.byteLength(text),
  };
}

const streamOf = (body: PlainBody) =>
  "text" in body
    ? new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(body.bytes);
          controller.close();
        },
      })
    : body.stream();

/** The stream with its first bytes read ahead: whether it stays under `bytes`, and the same stream whole. */
async function peeked(stream: ReadableStream<Uint8Array>, bytes: number) {
  const reader = stream.getReader();
  const head: Uint8Array[] = [];
  let size = 0;
  let done = false;
  try {
    while (size < bytes && !done) {
      const next = await reader.read();
      if (next.done) {
        done = true;
      } else {
        head.push(next.value);
        size += next.value.byteLength;
      }
    }
  } catch (error) {
    reader.cancel(error).catch(() => {});
    throw error;
  }
  const whole = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (head.length > 0) return controller.enqueue(head.shift()!);
      if (done) return controller.close();
      const next = await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { short: done && size < bytes, whole };
}

/** The surface's refusal (plain text, a problem): 406 when no coding is acceptable, 416 for a range past the end. */
export type DownloadRefusal = (status: 406 | 416, message: string, headers: Record<string, string>) => Response;

async function rangeAnswer(
  request: Request,
  download: Download,
  body: PlainBody,
  headers: Headers,
  refuse: DownloadRefusal,
): Promise<Response | undefined> {
  const requested = parseRangeHeader(request.headers.get("range"));
  if (!requested || !rangeStillValid(request, download)) return undefined;
  const length = "text" in body ? body.length : await body.length(request.signal);
  headers.set("ETag", tagOf(download, "identity"));
  const range = resolveRange(requested, length);
  if (range === "unsatisfiable") {
    const message = `The range starts past the end of the body, which has ${length} bytes.`;
    return refuse(416, message, { "Content-Range": `bytes */${length}`, "Accept-Ranges": "bytes" });
  }
  headers.set("Content-Range", `bytes ${range.start}-${range.end}/${length}`);
  headers.set("Content-Length", String(range.end - range.start + 1));
  const from = "text" in body ? undefined : body.streamFrom?.(range.start);
  const sliced = from
    ? slicedStream(from.stream, { start: range.start - from.offset, end: range.end - from.offset })
    : slicedStream(streamOf(body), range);
  return markStreamed(new Response(sliced, { status: 206, headers }));
}

/** The answer to a GET (or HEAD) of the download. */
export async function downloadAnswer(request: Request, download: Download, refuse: DownloadRefusal): Promise<Response> {
  const offered = isFrontRequest(request) ? CODINGS : PLAIN_ONLY;
  const coding = negotiateCoding(request.headers.get("accept-encoding"), offered);
  if (coding === undefined) {
    const message = `This download comes as ${offered.join(", ")}; Accept-Encoding refuses ${offered.length > 1 ? "them all" : "it"}.`;
    return refuse(406, message, { Vary: "Accept-Encoding" });
  }
  const headers = new Headers({
    "Cache-Control": download.cacheControl,
    Vary: "Accept-Encoding",
    "Accept-Ranges": "bytes",
    ETag: tagOf(download, coding),
  });
  if (download.lastModified) headers.set("Last-Modified", download.lastModified.toUTCString());
  const unchanged = notModified(request, download, coding);
  if (unchanged) {
    headers.set("ETag", unchanged);
    return new Response(null, { status: 304, headers });
  }
  headers.set("Content-Type", download.contentType);
  const body = await plainBody(download);
  const ranged = await rangeAnswer(request, download, body, headers, refuse);
  if (ranged) return ranged;

  if ("text" in body && (coding === "identity" || body.length < MIN_COMPRESSED_BYTES)) {
    headers.set("ETag", tagOf(download, "identity"));
    return textResponse(body.text, { status: 200, headers });
  }
  const plain = streamOf(body);
  if (coding === "identity") return markStreamed(new Response(plain, { status: 200, headers }));
  // A text's size is known (a short one went out above); a stream's first bytes tell whether it stays short.
  const { short, whole } = "text" in body ? { short: false, whole: plain } : await peeked(plain, MIN_COMPRESSED_BYTES);
  if (short) {
    headers.set("ETag", tagOf(download, "identity"));
    return markStreamed(new Response(whole, { status: 200, headers }));
  }
  headers.set("Content-Encoding", coding);
  return markStreamed(new Response(compressedStream(whole, coding), { status: 200, headers }));
}
