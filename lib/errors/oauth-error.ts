/**
 * Protocol errors, named after their RFC 6749 / 6750 / 8628 / OpenID Connect codes. Each knows its HTTP status and
 * whether it may be sent to the client's redirect URI: only errors raised after the client and its redirect URI were
 * verified may travel there (otherwise the authorization endpoint would be an open redirector).
 */
import { OptiGateError } from "@/lib/errors/optigate-error";

export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "unsupported_response_type"
  | "invalid_scope"
  | "access_denied"
  | "login_required"
  | "consent_required"
  | "interaction_required"
  | "request_not_supported"
  | "request_uri_not_supported"
  | "invalid_token"
  | "insufficient_scope"
  | "unsupported_token_type"
  | "invalid_target"
  | "invalid_dpop_proof"
  | "use_dpop_nonce"
  | "authorization_pending"
  | "slow_down"
  | "expired_token"
  | "proof_of_work_required"
  | "server_error";

/**
 * `description` goes to the caller (error_description); `detail`, when there is more to say that the caller must
 * not learn (what OptiGate did about it, internal state), goes only to the log and the audit trail.
 */
export class OAuthError extends OptiGateError<OAuthErrorCode> {
  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
    readonly status = 400,
    readonly detail?: string,
  ) {
    super(`${code}: ${description}`);
  }
}

export const invalidRequest = (description: string) => new OAuthError("invalid_request", description);
export const invalidClient = (description: string) => new OAuthError("invalid_client", description, 401);
export const invalidGrant = (description: string, detail?: string) =>
  new OAuthError("invalid_grant", description, 400, detail);
export const invalidScope = (description: string) => new OAuthError("invalid_scope", description);
export const unauthorizedClient = (description: string) => new OAuthError("unauthorized_client", description);
export const invalidToken = (description: string) => new OAuthError("invalid_token", description, 401);
/** RFC 8707 §2: a resource that is malformed, or that the client may not ask a token for. */
export const invalidTarget = (description: string) => new OAuthError("invalid_target", description);

export const invalidDpopProof = (description: string, status = 400) =>
  new OAuthError("invalid_dpop_proof", description, status);

/** RFC 9449 §8: the proof must carry the server's nonce; the answer hands out a fresh one (DPoP-Nonce). */
export class DpopNonceError extends OAuthError {
  constructor(
    description: string,
    readonly nonce: string,
    status = 400,
  ) {
    super("use_dpop_nonce", description, status);
  }
}

/**
 * An endpoint that public clients reach is under attack: the client solves the challenge handed out and sends the
 * request again with the solution (lib/proof-of-work/proof-gate.ts). The challenge goes into the error's body.
 */
export class ProofOfWorkRequired extends OAuthError {
  constructor(
    description: string,
    readonly challenge: unknown,
  ) {
    super("proof_of_work_required", description, 400);
  }
}

/** An error the authorization endpoint must not redirect: shown on OptiGate's own error page instead. */
export class UnsafeRedirectError extends OAuthError {
  constructor(code: "invalid_request" | "invalid_client", description: string) {
    super(code, description, 400);
  }
}
