/**
 * An access token as a protected resource receives it (RFC 6750 §2.1, RFC 9449 §7): `Authorization: Bearer <token>`
 * or `Authorization: DPoP <token>` with a proof. A token bound to a key (`cnf.jkt`) is accepted only under the DPoP
 * scheme with a fresh proof by that key whose `ath` hashes it; an unbound token only as a bearer token. Refusals are
 * 401s that name the scheme to answer with (RFC 9449 §7.1: `WWW-Authenticate: DPoP` with `algs`).
 */
import { DpopNonceError, invalidToken, OAuthError } from "@/lib/errors/oauth-error";
import type { HeaderReader } from "@/lib/http/protocol-message";
import { DPOP_ALGORITHMS } from "@/lib/jwt/dpop-proof";
import { acceptDpopProof, dpopHeader } from "@/lib/oauth/dpop/accept-dpop-proof";
import type { ServiceContext } from "@/lib/service-context";

export type TokenScheme = "Bearer" | "DPoP";

export interface PresentedToken {
  scheme: TokenScheme;
  token: string;
}

/** RFC 6750 §2.1 b64token. */
const CREDENTIALS = /^(Bearer|DPoP) +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** The token of an Authorization header; undefined when there is none, "malformed" when it has another form. */
export function readAuthorization(header: string | null): PresentedToken | "malformed" | undefined {
  if (header === null || header === "") return undefined;
  const match = CREDENTIALS.exec(header);
  if (!match) return "malformed";
  return { scheme: match[1].toLowerCase() === "dpop" ? "DPoP" : "Bearer", token: match[2] };
}

/** A refusal at a protected resource, with the scheme its challenge names. */
export class ResourceRefusal extends OAuthError {
  constructor(
    readonly error: OAuthError,
    readonly scheme: TokenScheme,
  ) {
    // A malformed request stays a 400 and a missing scope a 403; everything else is about the credentials.
    super(error.code, error.description, error.code === "invalid_request" || error.status === 403 ? error.status : 401);
  }
}

/** `error` as a refusal under `scheme`, unless it is one already (with the scheme it was raised under). */
export const resourceRefusal = (error: OAuthError, scheme: TokenScheme): ResourceRefusal =>
  error instanceof ResourceRefusal ? error : new ResourceRefusal(error, scheme);

/** The value of WWW-Authenticate for a refusal (or, without one, the request for a token in either scheme). */
export function resourceChallenge(refusal?: ResourceRefusal): string {
  const algs = `algs="${DPOP_ALGORITHMS.join(" ")}"`;
  if (!refusal) return `Bearer realm="OptiGate", DPoP ${algs}`;
  const error = `error="${refusal.code}", error_description="${refusal.description.replace(/["\\]/g, "'")}"`;
  return refusal.scheme === "DPoP" ? `DPoP ${error}, ${algs}` : `Bearer realm="OptiGate", ${error}`;
}

/** Headers of a refusal: its challenge, and a fresh nonce when the proof lacked the server's. */
export function refusalHeaders(refusal: ResourceRefusal): Record<string, string> {
  const headers: Record<string, string> = { "WWW-Authenticate": resourceChallenge(refusal) };
  if (refusal.error instanceof DpopNonceError) headers["DPoP-Nonce"] = refusal.error.nonce;
  return headers;
}

/**
 * Checks that the token was presented as its binding requires: `jkt` is its `cnf.jkt` (undefined: a bearer token),
 * `url` the address the request was sent to on OptiGate's public origin.
 */
export async function checkSenderConstraint(
  context: ServiceContext,
  presented: PresentedToken,
  jkt: string | undefined,
  request: { method: string; url: string; headers: HeaderReader },
): Promise<void> {
  if (jkt === undefined) {
    if (presented.scheme === "DPoP")
      throw new ResourceRefusal(
        invalidToken("this access token is not bound to a DPoP key: send it as Bearer"),
        "DPoP",
      );
    return;
  }
  if (presented.scheme === "Bearer")
    throw new ResourceRefusal(
      invalidToken("this access token is bound to a DPoP key: send it as Authorization: DPoP with a proof"),
      "DPoP",
    );
  try {
    const proof = dpopHeader(request.headers);
    if (proof === undefined) throw invalidToken("a DPoP-bound access token needs a DPoP proof with each request");
    const proven = await acceptDpopProof(context, proof, {
      method: request.method,
      url: request.url,
      accessToken: presented.token,
    });
    if (proven.jkt !== jkt) throw invalidToken("the DPoP proof was signed by another key than the token is bound to");
  } catch (error) {
    throw error instanceof OAuthError ? resourceRefusal(error, "DPoP") : error;
  }
}
