/**
 * Recovery codes: ten one-time codes for when the app or the passkey is not at hand, each 60 random bits written as
 * three groups of four characters (Crockford's base32, no I, L, O or U), stored as their SHA-256 and shown once.
 * Typed codes are read leniently: case, spaces and dashes do not matter.
 */
import { randomBytes } from "node:crypto";
import type { SecondFactorStore } from "@/lib/store/second-factor-store";

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const CODES = 10;
const TYPED = /^[0-9A-Z]{12}$/;

function newCode(): string {
  const bytes = randomBytes(12);
  const characters = [...bytes].map((byte) => ALPHABET[byte % 32]).join("");
  return characters.match(/.{4}/g)!.join("-");
}

const normalized = (typed: string) => typed.toUpperCase().replace(/[\s-]/g, "");

/** Whether a typed code is written as a recovery code (an app's code never is). */
export const hasRecoveryCodeShape = (typed: string) => TYPED.test(normalized(typed.slice(0, 40)));

/** Makes the user's ten codes anew (the old ones stop working); the codes, to be shown this once. */
export async function makeRecoveryCodes(
  secondFactors: SecondFactorStore,
  userId: string,
  now = new Date(),
): Promise<string[]> {
  const codes = Array.from({ length: CODES }, newCode);
  await secondFactors.replaceRecoveryCodes(userId, codes.map(normalized), now);
  return codes;
}

/** Uses one of the user's codes; false for anything that is not an unused code of theirs. */
export function redeemRecoveryCode(
  secondFactors: SecondFactorStore,
  userId: string,
  typed: string,
  now = new Date(),
): Promise<boolean> {
  return hasRecoveryCodeShape(typed)
    ? secondFactors.useRecoveryCode(userId, normalized(typed.slice(0, 40)), now)
    : Promise.resolve(false);
}
