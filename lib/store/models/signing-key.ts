/** The algorithms OptiGate signs tokens with; each has one active stored key at a time. */
export const SIGNING_ALGORITHMS = ["RS256", "ES256", "PS256"] as const;
export type SigningAlgorithm = (typeof SIGNING_ALGORITHMS)[number];

export const isSigningAlgorithm = (value: unknown): value is SigningAlgorithm =>
  SIGNING_ALGORITHMS.includes(value as SigningAlgorithm);
