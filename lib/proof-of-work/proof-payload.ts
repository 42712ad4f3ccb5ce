/**
 * The solution a browser or an API client sends back: base64 of ALTCHA's v2 payload, a JSON object with the challenge
 * as it was handed out and the solution found. Anything else, or anything longer than a payload can be, is refused
 * here, before a byte of it reaches the verifier.
 */
import type { Payload } from "altcha-lib";

/** A v2 payload is about 700 characters; twice that leaves room and bounds what is parsed. */
export const MAX_PROOF_PAYLOAD_LENGTH = 2048;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isHex = (value: unknown): value is string => typeof value === "string" && /^[0-9a-f]{1,256}$/i.test(value);
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

function isParameters(value: unknown): boolean {
  if (!isRecord(value)) return false;
  const { algorithm, nonce, salt, cost, keyLength, keyPrefix, keySignature, expiresAt, data } = value;
  return (
    typeof algorithm === "string" &&
    [nonce, salt, keyPrefix, keySignature].every(isHex) &&
    [cost, keyLength, expiresAt].every(isCount) &&
    (data === undefined || isRecord(data))
  );
}

/** The payload's challenge and solution, or null when it is no well-formed payload. */
export function parseProofPayload(encoded: string): Payload | null {
  if (encoded.length > MAX_PROOF_PAYLOAD_LENGTH || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(encoded)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(encoded, "base64").toString("utf8"));
  } catch {
    return null;
  }
  if (!isRecord(value) || !isRecord(value.challenge) || !isRecord(value.solution)) return null;
  const { challenge, solution } = value;
  if (!isParameters(challenge.parameters) || !isHex(challenge.signature)) return null;
  if (!isCount(solution.counter) || !isHex(solution.derivedKey)) return null;
  return value as unknown as Payload;
}
