/**
 * Range requests (RFC 9110 §14): the one byte range a `Range` header asks for, resolved against the body's length.
 * Anything but a single well-formed `bytes` range is ignored (the whole body is sent), as §14.2 allows; multiple
 * ranges are not worth a multipart answer for a document read from start to end.
 */

export interface ByteRange {
  /** first byte, inclusive */
  start: number;
  /** last byte, inclusive */
  end: number;
}

/** `bytes=first-[last]` or `bytes=-suffix`; null when malformed, multiple or not in bytes. */
export function parseRangeHeader(header: string | null): { first?: number; last?: number; suffix?: number } | null {
  const match = /^\s*bytes\s*=\s*(\d{0,15})\s*-\s*(\d{0,15})\s*$/i.exec(header ?? "");
  if (!match || (match[1] === "" && match[2] === "")) return null;
  if (match[1] === "") return { suffix: Number(match[2]) };
  const first = Number(match[1]);
  const last = match[2] === "" ? undefined : Number(match[2]);
  return last !== undefined && last < first ? null : { first, last };
}

/** The range within a body of `length` bytes, or "unsatisfiable" (416) when it starts past the end. */
export function resolveRange(
  requested: { first?: number; last?: number; suffix?: number },
  length: number,
): ByteRange | "unsatisfiable" {
  if (requested.suffix !== undefined) {
    if (requested.suffix === 0 || length === 0) return "unsatisfiable";
    return { start: Math.max(0, length - requested.suffix), end: length - 1 };
  }
  const first = requested.first!;
  if (first >= length) return "unsatisfiable";
  return { start: first, end: Math.min(requested.last ?? length - 1, length - 1) };
}

/** Only the bytes from `range.start` to `range.end` of the stream; the source is cancelled once they are through. */
export function slicedStream(source: ReadableStream<Uint8Array>, range: ByteRange): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        const chunkStart = offset;
        offset += value.byteLength;
        if (offset <= range.start) continue;
        const from = Math.max(0, range.start - chunkStart);
        const to = Math.min(value.byteLength, range.end + 1 - chunkStart);
        controller.enqueue(value.subarray(from, to));
        if (offset > range.end) {
          controller.close();
          await reader.cancel();
        }
        return;
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}
