/**
 * How a user signed in, as OpenID Connect tells relying parties: `amr` (RFC 8176 method names) and `acr`, one of two
 * levels of OptiGate's own (docs/second-factor.md). A password alone is `urn:optigate:acr:password`; a second factor
 * after it, or a passkey with user verification, is `urn:optigate:acr:mfa` and adds `mfa` to the methods.
 */
export const ACR_PASSWORD = "urn:optigate:acr:password";
export const ACR_MFA = "urn:optigate:acr:mfa";
export const ACR_VALUES_SUPPORTED = [ACR_PASSWORD, ACR_MFA] as const;

export type Acr = (typeof ACR_VALUES_SUPPORTED)[number];

/** RFC 8176 methods OptiGate records: password, one-time code, hardware- or software-held key, user verification. */
export type AuthenticationMethod = "pwd" | "otp" | "hwk" | "swk" | "user" | "mfa";

const METHODS: readonly string[] = ["pwd", "otp", "hwk", "swk", "user", "mfa"];

export const PASSWORD_ONLY: readonly AuthenticationMethod[] = ["pwd"];

export const acrOf = (amr: readonly string[]): Acr => (amr.includes("mfa") ? ACR_MFA : ACR_PASSWORD);

/** The methods stored as JSON; anything unreadable counts as a password alone, never as more. */
export function parseAmr(stored: string | null | undefined): AuthenticationMethod[] {
  try {
    const parsed: unknown = JSON.parse(stored ?? "");
    const methods = Array.isArray(parsed) ? parsed.filter((method) => METHODS.includes(method)) : [];
    return methods.length > 0 ? (methods as AuthenticationMethod[]) : [...PASSWORD_ONLY];
  } catch {
    return [...PASSWORD_ONLY];
  }
}

/** The methods after a second factor: those so far, the new ones, and `mfa`. */
export function withSecondFactor(
  amr: readonly AuthenticationMethod[],
  added: readonly AuthenticationMethod[],
): AuthenticationMethod[] {
  return [...new Set<AuthenticationMethod>([...amr, ...added, "mfa"])];
}

/** Whether a session of these methods meets the level asked for (the acr values in order of preference). */
export function meetsAcr(amr: readonly string[], wanted: Acr | undefined): boolean {
  return wanted !== ACR_MFA || acrOf(amr) === ACR_MFA;
}
