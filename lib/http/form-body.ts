/**
 * Request bodies, read with a bound. Every form and protocol POST is small, so a body is read while its bytes are
 * counted and refused with 413 once it passes MAX_FORM_BYTES, whatever Content-Length says (or when it is absent,
 * as with chunked bodies): nobody can make the server hold more than that per request.
 */
import { OptiGateError } from "@/lib/errors/optigate-error";
import { MAX_FORM_BYTES } from "@/lib/config/policy";
import { bodyHasNul, NUL_REFUSAL } from "@/lib/http/nul-character";
import type { HeaderReader } from "@/lib/http/protocol-message";

/** The body could not be taken: too large (413), or the caller stopped sending it (400). Never the server's fault. */
/** A request body that cannot be used: cut off, too large, or holding U+0000. */
export class RequestBodyError extends OptiGateError<"body_incomplete" | "body_too_large" | "nul_character"> {
  constructor(
    readonly status: 400 | 413,
    message: string,
    readonly code: "body_incomplete" | "body_too_large" | "nul_character" = "body_incomplete",
  ) {
    super(message);
  }
}

export class BodyTooLargeError extends RequestBodyError {
  constructor(readonly limit: number) {
    super(413, `the request body is larger than ${limit} bytes`, "body_too_large");
  }
}

/** The body holds U+0000 (lib/http/nul-character.ts). */
export class NulCharacterError extends RequestBodyError {
  constructor() {
    super(400, NUL_REFUSAL, "nul_character");
  }
}

export const bodyNotReceived = () => new RequestBodyError(400, "the request body did not arrive in full");

export function isFormRequest(request: { headers: HeaderReader }): boolean {
  const type = request.headers.get("content-type") ?? "";
  return type.split(";")[0].trim().toLowerCase() === "application/x-www-form-urlencoded";
}

/** The body's bytes, at most `limit` of them; stops reading and throws BodyTooLargeError beyond that. */
export async function readBodyBytes(request: Request, limit = MAX_FORM_BYTES): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > limit) {
    await request.body.cancel().catch(() => undefined);
    throw new BodyTooLargeError(limit);
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const read = () => reader.read().catch(() => Promise.reject(bodyNotReceived()));
  for (let chunk = await read(); !chunk.done; chunk = await read()) {
    size += chunk.value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError(limit);
    }
    chunks.push(chunk.value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** The body as text (UTF-8, bad sequences replaced), bounded as readBodyBytes. */
export async function readBodyText(request: Request, limit = MAX_FORM_BYTES): Promise<string> {
  return bodyText(await readBodyBytes(request, limit));
}

const utf8 = new TextDecoder();

/** A body read already, as text (UTF-8, bad sequences replaced); U+0000 is refused. */
export function bodyText(bytes: Uint8Array | undefined): string {
  const text = bytes ? utf8.decode(bytes) : "";
  if (bodyHasNul(text)) throw new NulCharacterError();
  return text;
}

/** An application/x-www-form-urlencoded body; any other content type counts as an empty form. */
export async function readForm(request: Request): Promise<URLSearchParams> {
  return isFormRequest(request) ? new URLSearchParams(await readBodyText(request)) : new URLSearchParams();
}
