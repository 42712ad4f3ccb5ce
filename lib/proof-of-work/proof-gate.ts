/**
 * The gate in front of the sign-in forms and the endpoints public clients reach: open while the source is under no
 * pressure (lib/proof-of-work/pressure.ts), else only with a solved challenge. Forms show the refusal on their page,
 * where the next challenge waits; API clients get the documented JSON error with the next challenge in it.
 */
import type { Config } from "@/lib/config";
import { ProofOfWorkRequired } from "@/lib/errors/oauth-error";
import type { HeaderReader } from "@/lib/http/protocol-message";
import { checkProof, createProofChallenge, type ProofCheck, type ProofPurpose } from "@/lib/proof-of-work/challenge";
import { isUnderPressure, type PressureScope, type PressureSource } from "@/lib/proof-of-work/pressure";
import type { DataAccess } from "@/lib/service-context";

/** The header an API client sends its solution in (base64 of ALTCHA's v2 payload). */
export const PROOF_OF_WORK_HEADER = "Proof-Of-Work";
/** The form field a page's challenge fills in. */
export const PROOF_OF_WORK_FIELD = "proof_of_work";

type GateContext = DataAccess & { config: Pick<Config, "proofOfWork" | "secretKey"> };

/** "open", or why the request may not pass: no solution, or one that is not (or no longer) good. */
export async function passProofGate(
  { config, stores }: GateContext,
  purpose: ProofPurpose,
  source: PressureSource,
  payload: string | null | undefined,
  scopes?: readonly PressureScope[],
): Promise<"open" | Exclude<ProofCheck, "solved">> {
  if (!(await isUnderPressure(stores.throttles, config.proofOfWork, source, { scopes }))) return "open";
  const check = await checkProof(stores.usedAssertions, config.secretKey, payload, purpose);
  return check === "solved" ? "open" : check;
}

/** The errors a form comes back with for want of a good proof. */
export const PROOF_FORM_ERRORS = ["proof_of_work_required", "proof_of_work_failed"] as const;

/** The form error a refusal shows on its page. */
export const proofFormError = (check: Exclude<ProofCheck, "solved">) =>
  check === "missing" ? PROOF_FORM_ERRORS[0] : PROOF_FORM_ERRORS[1];

/**
 * For an API client: nothing while its network is under no pressure, else ProofOfWorkRequired (400
 * `proof_of_work_required`) with a fresh challenge, which the client solves and sends back in the Proof-Of-Work
 * header of the same request again (docs/security.md). Only the network counts: most OAuth libraries cannot answer a
 * challenge, so an attack elsewhere must not stop every public client's sign-in.
 */
export async function requireClientProof(
  context: GateContext,
  purpose: ProofPurpose,
  address: string | undefined,
  headers: HeaderReader,
): Promise<void> {
  const check = await passProofGate(context, purpose, { address }, headers.get(PROOF_OF_WORK_HEADER), ["address"]);
  if (check === "open") return;
  const description =
    check === "missing"
      ? "too many failures from this network or on this server: solve proof_of_work_challenge and send the request again with the solution in the Proof-Of-Work header"
      : `the Proof-Of-Work solution is ${check}: solve proof_of_work_challenge instead`;
  const { proofOfWork, secretKey } = context.config;
  throw new ProofOfWorkRequired(description, await createProofChallenge(proofOfWork!, secretKey, purpose));
}
