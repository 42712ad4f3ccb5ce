/**
 * The access token of an API call: read from the Authorization header (Bearer, or DPoP with a proof) and handed to
 * the resource server's own check; a missing, malformed or refused token is the invalid-token problem with the
 * WWW-Authenticate challenge of its scheme.
 */
import { ApiProblem, invalidTokenProblem } from "@/lib/errors/api-problem";
import { OAuthError } from "@/lib/errors/oauth-error";
import {
  readAuthorization,
  refusalHeaders,
  resourceRefusal,
  type PresentedToken,
} from "@/lib/oauth/dpop/presented-token";
import type { HeaderReader } from "@/lib/http/protocol-message";

/** What a DPoP proof is checked against: the method and the public address of the call. */
export interface ProofTarget {
  method: string;
  url: string;
  headers: HeaderReader;
}

export async function authenticatedCaller<Caller>(
  request: Request,
  publicUrl: string,
  check: (presented: PresentedToken, target: ProofTarget) => Promise<Caller>,
): Promise<Caller> {
  const header = request.headers.get("authorization");
  const presented = readAuthorization(header);
  if (presented === undefined || presented === "malformed")
    throw invalidTokenProblem(
      header
        ? "The Authorization header must be Bearer or DPoP followed by an access token."
        : "Send an access token issued by OptiGate in the Authorization header (Bearer, or DPoP with a proof).",
    );
  try {
    return await check(presented, { method: request.method, url: publicUrl, headers: request.headers });
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    const refusal = resourceRefusal(error, presented.scheme);
    throw new ApiProblem(
      "invalid-token",
      `The access token is not accepted: ${refusal.description}.`,
      refusalHeaders(refusal),
    );
  }
}
