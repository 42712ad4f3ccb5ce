/**
 * Answers the Node deployment's lean front writes without buffering them through web streams. Streamed ones (a
 * sub-catalog can be tens of megabytes) it pipes with backpressure. Text ones (an XML list, a JSON page) it writes
 * as the text they were made from: Node 24's Response copies a body it is given and reading it back copies it again,
 * which for an answer of 350 KB cost more than making it. Next.js reads either as any Response.
 */
import { processCache } from "@/lib/observability/process-cache";

const streamed = processCache("streamedResponses", () => new WeakSet<Response>());
const texts = processCache("textResponses", () => new WeakMap<Response, string | Buffer>());

export function markStreamed(response: Response): Response {
  streamed.add(response);
  return response;
}

export const isStreamed = (response: Response): boolean => streamed.has(response);

/**
 * A Response of `text` (or its UTF-8 bytes), encoded only when something reads its body; it carries its
 * Content-Length.
 */
export function textResponse(text: string | Buffer, init: { status?: number; headers: HeadersInit }): Response {
  const headers = new Headers(init.headers);
  headers.set("Content-Length", String(Buffer.byteLength(text)));
  // No high-water mark: a stream pulls once as soon as it is made, and only a reader should cost the encoding.
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        // Bytes kept for later answers are not handed to a reader, which may take their buffer away.
        controller.enqueue(typeof text === "string" ? Buffer.from(text) : Buffer.copyBytesFrom(text));
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  const response = new Response(body, { status: init.status ?? 200, headers });
  texts.set(response, text);
  return response;
}

/** The text (or bytes) a textResponse was made of; undefined for any other Response. */
export const textOf = (response: Response): string | Buffer | undefined => texts.get(response);
