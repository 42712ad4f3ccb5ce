/** How a user signed in: RFC 8176 method names, as sessions, codes and refresh tokens keep them. */

/**
 * RFC 8176 methods OptiGate records: password, one-time code, hardware- or software-held key, user verification,
 * and `fed`: a company's identity provider signed the person in (issue 46).
 */
export type AuthenticationMethod = "pwd" | "otp" | "hwk" | "swk" | "user" | "mfa" | "fed";

export const AUTHENTICATION_METHODS: readonly string[] = ["pwd", "otp", "hwk", "swk", "user", "mfa", "fed"];

export const PASSWORD_ONLY: readonly AuthenticationMethod[] = ["pwd"];

/** The methods stored as JSON; anything unreadable counts as a password alone, never as more. */
export function parseAmr(stored: string | null | undefined): AuthenticationMethod[] {
  try {
    const parsed: unknown = JSON.parse(stored ?? "");
    const methods = Array.isArray(parsed) ? parsed.filter((method) => AUTHENTICATION_METHODS.includes(method)) : [];
    return methods.length > 0 ? (methods as AuthenticationMethod[]) : [...PASSWORD_ONLY];
  } catch {
    return [...PASSWORD_ONLY];
  }
}
