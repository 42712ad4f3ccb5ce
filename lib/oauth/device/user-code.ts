/**
 * User codes (RFC 8628 §6.1): 8 letters from 20 consonants without look-alikes, about 34.6 bits, shown as XXXX-XXXX.
 * What a person types is normalized before it is compared (case and punctuation do not matter), and only a keyed hash
 * of the normalized code is stored: an HMAC under a key from SECRET_KEY, since 20^8 codes would fall to a brute force
 * of a plain hash in seconds.
 */
import { createHmac, randomInt } from "node:crypto";
import { deriveKey } from "@/lib/crypto/secret-box";

/** No vowels (no words), no look-alikes of digits or of each other (no I, O, U, Y). */
export const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";
const LENGTH = 8;

export function generateUserCode(): string {
  return Array.from({ length: LENGTH }, () => USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)]).join("");
}

/** The code as people read it: two groups of four. */
export const formatUserCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

/** The code as typed, without case, spaces or dashes; undefined when it cannot be a user code at all. */
export function normalizeUserCode(typed: string): string | undefined {
  const code = typed.toUpperCase().replace(/[\s\-_.]/g, "");
  return code.length === LENGTH && [...code].every((letter) => USER_CODE_ALPHABET.includes(letter)) ? code : undefined;
}

const keys = new Map<string, Buffer>();

/** The stored form of a normalized code. */
export function userCodeHash(code: string, secretKey: string): string {
  let key = keys.get(secretKey);
  if (!key) keys.set(secretKey, (key = deriveKey(secretKey, "device-user-code")));
  return createHmac("sha256", key).update(code, "utf8").digest("base64url");
}
