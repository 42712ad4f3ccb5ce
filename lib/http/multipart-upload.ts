/**
 * A multipart/form-data upload (RFC 7578) read as a stream: the form's fields, which come before its one file, and
 * then the file's text while it arrives, so that a 100 MB catalog never sits in memory. The body's bytes are counted
 * as they are read, whatever Content-Length says (chunked bodies have none), and reading stops with
 * BodyTooLargeError past the limit: the file's text then ends with that error.
 */
import { MAX_FORM_BYTES } from "@/lib/config/policy";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { BodyTooLargeError, bodyNotReceived, RequestBodyError } from "@/lib/http/form-body";

export interface MultipartUpload {
  /** The fields sent before the file (the ones to decide on before reading it). */
  fields: URLSearchParams;
  file?: {
    field: string;
    name: string;
    /** The file as text (UTF-8), chunk by chunk; iterate it to the end, or call discard(). */
    text: AsyncIterable<string>;
  };
  /** Stops reading the body: for a file that will not be read. */
  discard(): void;
}

export function isMultipartRequest(request: Request): boolean {
  return (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase() === "multipart/form-data";
}

function countedBytes(body: ReadableStream<Uint8Array>, limit: number): ReadableStream<Uint8Array> {
  let size = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > limit) controller.error(new BodyTooLargeError(limit));
        else controller.enqueue(chunk);
      },
    }),
  );
}

/** Reads up to the first file part; rejects (or ends the file's text) with a RequestBodyError: too large, cut off, malformed. */
export function readMultipartUpload(request: Request, limit: number): Promise<MultipartUpload> {
  if (!request.body) return Promise.reject(new RequestBodyError(400, "the form has no body"));
  const source = Readable.fromWeb(countedBytes(request.body, limit) as NodeReadableStream<Uint8Array>);
  const parser = busboy({
    headers: { "content-type": request.headers.get("content-type") ?? "" },
    defParamCharset: "utf8",
    limits: { files: 1, fields: 20, parts: 21, fieldSize: MAX_FORM_BYTES, fieldNameSize: 100 },
  });
  const fields = new URLSearchParams();
  const discard = () => source.destroy();
  return new Promise((resolve, reject) => {
    let file: Readable | undefined;
    const fail = (error: Error) => {
      if (file) file.destroy(error);
      else reject(error);
    };
    source.on("error", (error) => {
      fail(error instanceof RequestBodyError ? error : bodyNotReceived());
      parser.destroy();
    });
    parser.on("error", () => fail(new RequestBodyError(400, "the form is not valid multipart/form-data")));
    parser.on("field", (name, value) => fields.append(name, value));
    parser.on("file", (field, stream, info) => {
      file = stream;
      stream.setEncoding("utf8");
      resolve({ fields, file: { field, name: info.filename ?? "", text: stream }, discard });
    });
    parser.on("close", () => resolve({ fields, discard }));
    source.pipe(parser);
  });
}
