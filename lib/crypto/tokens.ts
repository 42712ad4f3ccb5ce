/**
 * Random values handed out by the service (client secrets, codes, refresh tokens, session ids) and the hashes
 * under which they are stored. They carry 256 bits of randomness, so a fast SHA-256 is the right hash: a slow KDF
 * would add nothing against guessing and only slow down every token request.
 */
import { createHash, randomBytes } from "node:crypto";

/** 32 random bytes, base64url: 43 characters. */
export function generateOpaqueToken(): string {
  return randomBytes(32).toString("base64url");
}

export function hashToken(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("base64url");
}
