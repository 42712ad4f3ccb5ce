/**
 * Keys derived from SECRET_KEY (HKDF-SHA256, one per purpose) and authenticated encryption (AES-256-GCM) for data at
 * rest, such as the private parts of signing keys. Sealed form: base64url(iv).base64url(ciphertext).base64url(tag).
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const TAG_BYTES = 16;

/** `cookie:<name>`: each sealed cookie its own key (lib/http/sealed-cookie.ts). */
export type KeyPurpose =
  | "signing-key-encryption"
  | "csrf"
  | `cookie:${string}`
  | "api-cursor"
  | "refresh-token-successor"
  | "outbox"
  | "pending-sign-in"
  | "totp-secret"
  | "webauthn-challenge";

export function deriveKey(secretKey: string, purpose: KeyPurpose): Buffer {
  return Buffer.from(hkdfSync("sha256", secretKey, "optigate", purpose, 32));
}

export function seal(plaintext: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [iv, ciphertext, cipher.getAuthTag()].map((part) => part.toString("base64url")).join(".");
}

/** Throws when the data was tampered with or sealed under another key. */
export function unseal(sealed: string, key: Buffer): string {
  const [iv, ciphertext, tag] = sealed.split(".").map((part) => Buffer.from(part, "base64url"));
  // With the tag length fixed, a shortened tag (which GCM would otherwise check only in part) is refused.
  const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
}
