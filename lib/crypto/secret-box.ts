/**
 * Keys derived from SECRET_KEY (HKDF-SHA256, one per purpose) and authenticated encryption (AES-256-GCM) for sealed
 * values: data at rest such as the private parts of signing keys, and sealed cookies. Sealed form:
 * keyId.base64url(iv).base64url(ciphertext).base64url(tag), where keyId names the secret key that sealed it. New
 * values are sealed under the newest secret key; values sealed under an older one that SECRET_KEYS still lists open,
 * and those of a key no longer listed are refused (docs/operations.md, "Rotating SECRET_KEY").
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";

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
  | "webauthn-challenge"
  | "company-sso-secret"
  | "device-user-code"
  | "device-request"
  | "webhook-secret";

export function deriveKey(secretKey: string, purpose: KeyPurpose): Buffer {
  return Buffer.from(hkdfSync("sha256", secretKey, "optigate", purpose, 32));
}

/** A short public name of a secret key: its hash's first 48 bits, which tell nothing of the key itself. */
export const secretKeyId = (secretKey: string): string =>
  createHash("sha256").update(`optigate-key-id:${secretKey}`).digest().subarray(0, 6).toString("base64url");

/**
 * The older secret keys that still open sealed values, by the newest key (the configuration's SECRET_KEYS). Kept
 * here rather than passed along, as every sealing call already names its newest key.
 */
const olderKeys = new Map<string, readonly string[]>();

export function acceptOlderSecretKeys(newest: string, older: readonly string[]): void {
  olderKeys.set(newest, older);
}

const derived = new Map<string, Buffer>();

function keyFor(secretKey: string, purpose: KeyPurpose): Buffer {
  const cacheKey = `${secretKeyId(secretKey)}:${purpose}`;
  let key = derived.get(cacheKey);
  if (!key) derived.set(cacheKey, (key = deriveKey(secretKey, purpose)));
  return key;
}

/** Seals `plaintext` for `purpose` under the newest secret key. */
export function seal(plaintext: string, secretKey: string, purpose: KeyPurpose): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyFor(secretKey, purpose), iv, { authTagLength: TAG_BYTES });
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const parts = [iv, ciphertext, cipher.getAuthTag()].map((part) => part.toString("base64url"));
  return [secretKeyId(secretKey), ...parts].join(".");
}

function open(parts: string[], key: Buffer): string {
  const [iv, ciphertext, tag] = parts.map((part) => Buffer.from(part, "base64url"));
  // With the tag length fixed, a shortened tag (which GCM would otherwise check only in part) is refused.
  const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
}

/**
 * Opens a value sealed for `purpose` under the newest secret key or an older one still accepted; values sealed
 * before key ids existed are tried under each. Throws when it was tampered with or sealed under another key.
 */
export function unseal(sealed: string, secretKey: string, purpose: KeyPurpose): string {
  const keys = [secretKey, ...(olderKeys.get(secretKey) ?? [])];
  const parts = sealed.split(".");
  if (parts.length === 4) {
    const sealer = keys.find((candidate) => secretKeyId(candidate) === parts[0]);
    if (!sealer) throw new Error("sealed under a secret key that is no longer accepted");
    return open(parts.slice(1), keyFor(sealer, purpose));
  }
  for (const candidate of keys.slice(0, -1)) {
    try {
      return open(parts, keyFor(candidate, purpose));
    } catch {
      // the next older key
    }
  }
  return open(parts, keyFor(keys.at(-1)!, purpose));
}

/** Whether a sealed value is sealed under the newest key already (else `keys reseal` seals it anew). */
export const isSealedUnder = (sealed: string, secretKey: string): boolean =>
  sealed.startsWith(`${secretKeyId(secretKey)}.`);
