/**
 * The DPoP proof of a request, accepted once (RFC 9449 §4.3, §11.1): verified (lib/jwt/dpop-proof.ts), its nonce
 * checked when REQUIRE_DPOP_NONCE is on, and its jti recorded for the proof's key in `used_assertions`, so that a
 * replay is refused by every instance. Recording the jti is the only write a refused request may leave behind.
 */
import { DPOP_PROOF_WINDOW_SECONDS } from "@/lib/config/policy";
import { DpopNonceError, invalidDpopProof } from "@/lib/errors/oauth-error";
import type { HeaderReader } from "@/lib/http/protocol-message";
import { verifyDpopProof, type DpopProof, type ProofExpectation } from "@/lib/jwt/dpop-proof";
import { currentDpopNonce, isCurrentDpopNonce } from "@/lib/oauth/dpop/dpop-nonce";
import type { ServiceContext } from "@/lib/service-context";

/** The request's DPoP header, or undefined when it has none. */
export function dpopHeader(headers: HeaderReader): string | undefined {
  return headers.get("dpop") ?? undefined;
}

/** Verifies the proof and records its jti; throws invalid_dpop_proof or use_dpop_nonce (with a fresh nonce). */
export async function acceptDpopProof(
  context: ServiceContext,
  proof: string,
  expected: ProofExpectation,
): Promise<DpopProof> {
  const now = expected.now ?? new Date();
  const verified = verifyDpopProof(proof, { ...expected, now });
  const { secretKey, requireDpopNonce } = context.config;
  if (requireDpopNonce && (verified.nonce === undefined || !isCurrentDpopNonce(secretKey, verified.nonce, now)))
    throw new DpopNonceError(
      verified.nonce === undefined ? "the proof must carry the server's nonce" : "the proof's nonce is no longer valid",
      currentDpopNonce(secretKey, now),
    );
  const exp = verified.iat + DPOP_PROOF_WINDOW_SECONDS;
  const use = { kind: "dpop", signer: verified.jkt, jti: verified.jti, exp } as const;
  if (!(await context.stores.usedAssertions.recordUse(use, now)))
    throw invalidDpopProof("the proof's jti was used before: send a fresh proof with every request");
  return verified;
}
