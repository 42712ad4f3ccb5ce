/**
 * What an authorization request needs next, given the login session and the remembered consent: a login, a second
 * factor (the request asks for the mfa level, or the user's company requires it, and the session has a password
 * alone), a consent, an error (prompt=none cannot interact), or nothing more, so that a code can be issued.
 */
import type { AuthorizationRequest } from "@/lib/oauth/authorize/authorization-request";
import { OAuthError } from "@/lib/errors/oauth-error";
import { OFFLINE_ACCESS } from "@/lib/oauth/scopes";
import { ACR_MFA, meetsAcr } from "@/lib/session/authentication-level";

export type NextStep =
  | { kind: "login" }
  | { kind: "second_factor" }
  | { kind: "consent" }
  | { kind: "issue"; scopes: string[] }
  | { kind: "error"; error: OAuthError };

export interface SessionFacts {
  userId: string;
  authTime: Date;
  amr: readonly string[];
  /** the user's company requires a second factor of everyone */
  secondFactorRequired: boolean;
}

type Request = Pick<AuthorizationRequest, "prompt" | "maxAge" | "scopes" | "acr" | "signedInSince">;

const needsSecondFactor = (request: Request, session: SessionFacts) =>
  !meetsAcr(session.amr, session.secondFactorRequired ? ACR_MFA : request.acr);

function needsLogin(
  request: Request,
  session: SessionFacts | null,
  hintSubject: string | undefined,
  now: Date,
): boolean {
  if (!session) return true;
  if (hintSubject !== undefined && hintSubject !== session.userId) return true;
  if (request.signedInSince && session.authTime >= request.signedInSince) return false;
  if (request.prompt.has("login")) return true;
  const ageSeconds = Math.floor((now.getTime() - session.authTime.getTime()) / 1000);
  return request.maxAge !== undefined && ageSeconds > request.maxAge;
}

/** Remembered consent covers a request unless it asks for more, insists (prompt=consent) or wants offline access. */
function needsConsent(request: Request, grantedScopes: string[] | null): boolean {
  if (request.prompt.has("consent") || request.scopes.includes(OFFLINE_ACCESS) || grantedScopes === null) return true;
  return request.scopes.some((scope) => !grantedScopes.includes(scope));
}

export function decideNextStep(
  request: Request,
  session: SessionFacts | null,
  grantedScopes: string[] | null,
  hintSubject: string | undefined,
  now: Date,
): NextStep {
  const silent = request.prompt.has("none");
  if (needsLogin(request, session, hintSubject, now)) {
    return silent
      ? { kind: "error", error: new OAuthError("login_required", "the user is not signed in") }
      : { kind: "login" };
  }
  if (needsSecondFactor(request, session!)) {
    return silent
      ? { kind: "error", error: new OAuthError("interaction_required", "the sign-in needs a second factor") }
      : { kind: "second_factor" };
  }
  if (needsConsent(request, grantedScopes)) {
    return silent
      ? { kind: "error", error: new OAuthError("consent_required", "the user has not granted this access") }
      : { kind: "consent" };
  }
  return { kind: "issue", scopes: request.scopes };
}
