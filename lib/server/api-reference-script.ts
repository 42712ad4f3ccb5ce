/**
 * GET /docs/api-reference.js: the renderer of the API reference pages, Scalar's standalone browser build as the
 * installed @scalar/api-reference package ships it, served by OptiGate itself so that those pages load nothing from
 * another origin. The file is read from the working directory's node_modules: the repository's under `npm start` and
 * `next start`, the traced standalone output's in the container and on Vercel (next.config.mjs traces it).
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";

const API_REFERENCE_SCRIPT_FILE = path.join(
  "node_modules",
  "@scalar",
  "api-reference",
  "dist",
  "browser",
  "standalone.js",
);

/** An hour in caches, then revalidated by its ETag (size and time of the installed file). */
export async function handleApiReferenceScript(request: Request): Promise<Response> {
  const file = path.join(process.cwd(), API_REFERENCE_SCRIPT_FILE);
  const { size, mtimeMs } = await stat(file);
  const etag = `"${size.toString(36)}-${Math.trunc(mtimeMs).toString(36)}"`;
  const headers = {
    "Content-Type": "text/javascript; charset=utf-8",
    "Cache-Control": "public, max-age=3600",
    ETag: etag,
  };
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  if (request.method === "HEAD") return new Response(null, { headers: { ...headers, "Content-Length": `${size}` } });
  return new Response(Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>, { headers });
}
