/** The subject of an id_token_hint: an ID token OptiGate issued to this client. Expired hints are fine (OIDC Core). */
import { decodeJwt, jwtVerify } from "jose";
import type { KeySet } from "@/lib/oauth/keys/key-store";
import { invalidRequest } from "@/lib/oauth/errors";

export async function subjectOfIdTokenHint(hint: string, keys: KeySet, issuer: string, clientId: string): Promise<string> {
  try {
    const issuedAt = decodeJwt(hint).iat;
    // Verify as of the moment it was issued: the signature, issuer and audience matter, not its age.
    const { payload } = await jwtVerify(hint, keys.verify, {
      issuer,
      audience: clientId,
      algorithms: ["RS256"],
      currentDate: issuedAt ? new Date(issuedAt * 1000) : undefined,
    });
    if (typeof payload.sub !== "string") throw new Error("no subject");
    return payload.sub;
  } catch {
    throw invalidRequest("id_token_hint is not an ID token that OptiGate issued to this application");
  }
}
