/**
 * Proof-of-work challenges (ALTCHA's v2 format, altcha-lib): each hides a random counter below the configured
 * difficulty behind SHA-256, signed with a key derived from the secret key, so that the server keeps nothing until a
 * solution comes back. A solution is taken once (the used-assertion store, shared by every instance), before the
 * challenge expires, and only for the purpose it was made for (a login solution opens no registration).
 */
import { createHmac } from "node:crypto";
import { createChallenge, randomInt, verifySolution, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import type { ProofOfWorkConfig } from "@/lib/config/proof-of-work-config";
import { INTERACTION_LIFETIME_SECONDS } from "@/lib/config/policy";
import type { UsedAssertionStore } from "@/lib/store/used-assertion-store";
import { parseProofPayload } from "@/lib/proof-of-work/proof-payload";

/** What a proof opens: the sign-in forms, and the endpoints public clients reach. */
export type ProofPurpose = "login" | "password_reset" | "invitation" | "par" | "registration";

export type ProofCheck = "solved" | "missing" | "invalid" | "expired" | "replayed";

const ALGORITHM = "SHA-256";

/** One HMAC key per use, derived from the secret key: the challenge's signature, and its hidden key's. */
function signingKeys(secretKey: string) {
  const derive = (label: string) => createHmac("sha256", secretKey).update(`proof of work: ${label}`).digest("hex");
  return { hmacSignatureSecret: derive("challenge"), hmacKeySignatureSecret: derive("key") };
}

export async function createProofChallenge(
  config: ProofOfWorkConfig,
  secretKey: string,
  purpose: ProofPurpose,
  now = new Date(),
): Promise<Challenge> {
  return createChallenge({
    algorithm: ALGORITHM,
    cost: 1,
    counter: randomInt(config.difficulty),
    deriveKey,
    expiresAt: Math.floor(now.getTime() / 1000) + INTERACTION_LIFETIME_SECONDS,
    // The largest counter lets a browser show how far it got.
    data: { purpose, max: config.difficulty },
    ...signingKeys(secretKey),
  });
}

/** Checks a solution sent back (the payload a browser or client encoded); a solved one is used up by this check. */
export async function checkProof(
  usedAssertions: UsedAssertionStore,
  secretKey: string,
  payload: string | null | undefined,
  purpose: ProofPurpose,
  now = new Date(),
): Promise<ProofCheck> {
  if (!payload) return "missing";
  const proof = parseProofPayload(payload);
  if (!proof || proof.challenge.parameters.algorithm !== ALGORITHM) return "invalid";
  if (proof.challenge.parameters.data?.purpose !== purpose) return "invalid";
  let verified;
  try {
    verified = await verifySolution({ ...proof, deriveKey, ...signingKeys(secretKey) });
  } catch {
    return "invalid";
  }
  if (verified.expired) return "expired";
  if (!verified.verified) return "invalid";
  const { nonce, salt, expiresAt } = proof.challenge.parameters;
  const use = { kind: "proof_of_work", signer: purpose, jti: `${nonce}.${salt}`, exp: expiresAt! } as const;
  return (await usedAssertions.recordUse(use, now)) ? "solved" : "replayed";
}
