/**
 * Opaque cursors of the API's lists: the position after the last item of a page and the query it belongs to, signed
 * with a key derived from SECRET_KEY, so that a cursor that was altered, or is used with other filters, is refused
 * (400) instead of being trusted. Positions are keys of a stable order, so items added between two pages cause
 * neither duplicates nor gaps.
 */
import { MAX_CURSOR_LENGTH } from "@/lib/config/policy";
import { createHmac, timingSafeEqual } from "node:crypto";
import { ApiProblem } from "@/lib/errors/api-problem";
import { processCache } from "@/lib/observability/process-cache";
import { deriveKey } from "@/lib/crypto/secret-box";

const MAC_BYTES = 16;
const SIGNATURE = new RegExp(`^[\\w-]{${Math.ceil((MAC_BYTES * 4) / 3)}}$`);

/** The derived key, kept: HKDF on every page would cost more than the page. */
const keys = processCache("apiCursorKeys", () => new Map<string, Buffer>());
function cursorKey(secretKey: string): Buffer {
  let key = keys.get(secretKey);
  if (!key) keys.set(secretKey, (key = deriveKey(secretKey, "api-cursor")));
  return key;
}

const mac = (secretKey: string, text: string) =>
  createHmac("sha256", cursorKey(secretKey)).update(text).digest().subarray(0, MAC_BYTES);

/** `list` names the list and its query (for example "catalogs?validCountry=DE"); `position` is the last item's key. */
export function encodeCursor(secretKey: string, list: string, position: unknown): string {
  const text = Buffer.from(JSON.stringify([list, position])).toString("base64url");
  return `${text}.${mac(secretKey, text).toString("base64url")}`;
}

export function decodeCursor(secretKey: string, list: string, cursor: string): unknown {
  const refused = new ApiProblem(
    "bad-request",
    "The cursor is not one this API handed out for this list and these filters; start again without it.",
  );
  const [text, signature, extra] = cursor.split(".");
  // Exactly the characters encodeCursor writes: base64url decoding would skip others (and "=") silently.
  if (
    cursor.length > MAX_CURSOR_LENGTH ||
    extra !== undefined ||
    !/^[\w-]+$/.test(text ?? "") ||
    !SIGNATURE.test(signature ?? "")
  )
    throw refused;
  const given = Buffer.from(signature, "base64url");
  if (given.length !== MAC_BYTES || !timingSafeEqual(given, mac(secretKey, text))) throw refused;
  const [cursorList, position] = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as [string, unknown];
  if (cursorList !== list) throw refused;
  return position;
}
