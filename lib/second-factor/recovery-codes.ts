/**
 * Recovery codes: ten one-time codes for when the app or the passkey is not at hand, each 60 random bits written as
 * three groups of four characters (Crockford's base32, no I, L, O or U), stored as their SHA-256 and shown once.
 * Typed codes are read leniently: case, spaces and dashes do not matter.
 */
import { randomBytes } from "node:crypto";
import { hashToken } from "@/lib/crypto/tokens";
import type { Db } from "@/lib/db/prisma";
import { replaceRecoveryCodes, useRecoveryCode } from "@/lib/store/recovery-code-store";

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const CODES = 10;
const TYPED = /^[0-9A-Z]{12}$/;

function newCode(): string {
  const bytes = randomBytes(12);
  const characters = [...bytes].map((byte) => ALPHABET[byte % 32]).join("");
  return characters.match(/.{4}/g)!.join("-");
}

const normalized = (typed: string) => typed.toUpperCase().replace(/[\s-]/g, "");

/** Makes the user's ten codes anew (the old ones stop working); the codes, to be shown this once. */
export async function makeRecoveryCodes(db: Db, userId: string, now = new Date()): Promise<string[]> {
  const codes = Array.from({ length: CODES }, newCode);
  await replaceRecoveryCodes(
    db,
    userId,
    codes.map((code) => hashToken(normalized(code))),
    now,
  );
  return codes;
}

/** Uses one of the user's codes; false for anything that is not an unused code of theirs. */
export function redeemRecoveryCode(db: Db, userId: string, typed: string, now = new Date()): Promise<boolean> {
  const code = normalized(typed.slice(0, 40));
  return TYPED.test(code) ? useRecoveryCode(db, userId, hashToken(code), now) : Promise.resolve(false);
}
