/**
 * Solving a challenge where it is asked: in the browser (Web Crypto's SHA-256), reporting how far the search got
 * against the challenge's largest counter, and encoding the solution as the payload the gate takes.
 */
import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/web/sha";

const PROGRESS_EVERY = 512;

/** The payload for the form field, or null when the search was stopped. */
export async function solveProofInBrowser(
  challenge: Challenge,
  onProgress: (fraction: number) => void,
  controller: AbortController,
): Promise<string | null> {
  const max = Number(challenge.parameters.data?.max) || 1;
  let tried = 0;
  const counted: typeof deriveKey = (...args) => {
    tried += 1;
    if (tried % PROGRESS_EVERY === 0) onProgress(Math.min(1, tried / max));
    return deriveKey(...args);
  };
  const solution = await solveChallenge({ challenge, deriveKey: counted, controller });
  if (!solution) return null;
  const { parameters, signature } = challenge;
  return btoa(JSON.stringify({ challenge: { parameters, signature }, solution }));
}
