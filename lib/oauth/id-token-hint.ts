/**
 * Reads an id_token_hint: an ID token OptiGate issued. Verified as of the moment it was issued, because an expired ID
 * token is still a fine hint (OpenID Connect Core §3.1.2.1, RP-Initiated Logout §2): signature and issuer matter,
 * not age. Only an ID token will do: its `typ` must be JWT, and its audience one client (the callers check that it is
 * registered). Used by the authorization and the end-session endpoints.
 */
import { decodeJwt, jwtVerify } from "jose";
import type { KeySet } from "@/lib/store/signing-key-store";
import { SIGNING_ALGORITHMS } from "@/lib/store/models/signing-key";

export interface IdTokenHint {
  subject: string;
  clientId: string;
  sessionId?: string;
}

/** The hint's subject, client and session, or null when it is not a valid ID token of this issuer. */
export async function readIdTokenHint(hint: string, keys: KeySet, issuer: string): Promise<IdTokenHint | null> {
  try {
    const issuedAt = decodeJwt(hint).iat;
    // typ JWT: an access token (at+jwt) or a logout token (logout+jwt) of OptiGate is no ID token.
    const { payload } = await jwtVerify(hint, keys.verify, {
      issuer,
      typ: "JWT",
      algorithms: [...SIGNING_ALGORITHMS],
      currentDate: issuedAt ? new Date(issuedAt * 1000) : undefined,
    });
    const audience = Array.isArray(payload.aud) ? (payload.aud.length === 1 ? payload.aud[0] : undefined) : payload.aud;
    if (typeof payload.sub !== "string" || typeof audience !== "string") return null;
    return {
      subject: payload.sub,
      clientId: audience,
      sessionId: typeof payload.sid === "string" ? payload.sid : undefined,
    };
  } catch {
    return null;
  }
}
