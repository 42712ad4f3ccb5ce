/**
 * How a user signed in, as OpenID Connect tells relying parties: `amr` (RFC 8176 method names) and `acr`, one of two
 * levels of OptiGate's own (docs/second-factor.md). A password alone is `urn:optigate:acr:password`; a second factor
 * after it, or a passkey with user verification, is `urn:optigate:acr:mfa` and adds `mfa` to the methods.
 */
import type { AuthenticationMethod } from "@/lib/store/models/authentication";

export const ACR_PASSWORD = "urn:optigate:acr:password";
export const ACR_MFA = "urn:optigate:acr:mfa";
export const ACR_VALUES_SUPPORTED = [ACR_PASSWORD, ACR_MFA] as const;

export type Acr = (typeof ACR_VALUES_SUPPORTED)[number];

export const acrOf = (amr: readonly string[]): Acr => (amr.includes("mfa") ? ACR_MFA : ACR_PASSWORD);

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
