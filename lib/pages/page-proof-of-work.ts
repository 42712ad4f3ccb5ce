/**
 * The challenge a sign-in page puts into its form when the person's address, the account the page is about, or the
 * whole instance is under attack (lib/proof-of-work/pressure.ts), or when its form just came back for want of a proof
 * (the account it was about may be one the page cannot name); null otherwise, and then the page asks nothing.
 */
import "server-only";
import type { Challenge } from "altcha-lib";
import { createProofChallenge, type ProofPurpose } from "@/lib/proof-of-work/challenge";
import { isUnderPressure } from "@/lib/proof-of-work/pressure";
import { PROOF_FORM_ERRORS } from "@/lib/proof-of-work/proof-gate";
import { pageClientAddress } from "@/lib/pages/page-address";
import { getServiceContext } from "@/lib/service-context";

export async function pageProofChallenge(
  purpose: ProofPurpose,
  { account, error }: { account?: string; error?: string },
): Promise<Challenge | null> {
  const { config, stores } = getServiceContext();
  if (!config.proofOfWork) return null;
  const asked = PROOF_FORM_ERRORS.some((code) => code === error);
  const source = { address: await pageClientAddress(), account: account?.trim().toLowerCase() || undefined };
  if (!asked && !(await isUnderPressure(stores.throttles, config.proofOfWork, source))) return null;
  return createProofChallenge(config.proofOfWork, config.secretKey, purpose);
}
