/**
 * Signing in. Public: the credentials are the proof, checked under the sign-in throttle
 * (lib/session/verify-credentials.ts). A user with a second factor gets no session for the password alone: the
 * second step comes first (lib/rights/second-step.ts). A user whose company requires a second factor and who has
 * none yet is signed in and led to enrol. A success starts a login session and is audited. Each attempt is counted
 * for the metrics: its refusals where the credentials are checked, the right passwords here.
 */
import "server-only";
import type { ServiceContext } from "@/lib/service-context";
import { countSignIn } from "@/lib/observability/metrics";
import { signInUser } from "@/lib/session/login-session";
import { verifyCredentials, type CredentialCheck } from "@/lib/session/verify-credentials";

export type SignInResult =
  | Exclude<CredentialCheck, { ok: true }>
  | { ok: true; next: "second_step"; userId: string }
  | { ok: true; next: "session" | "enrol"; cookieValue: string; sessionId: string };

export async function signIn(
  context: ServiceContext,
  attempt: { username: string; password: string; ipAddress?: string; userAgent?: string },
): Promise<SignInResult> {
  const check = await verifyCredentials(context, attempt.username, attempt.password, attempt.ipAddress);
  if (!check.ok) return check;
  const factors = await context.stores.secondFactors.count(check.user.id);
  if (factors.passkeys > 0 || factors.totp) {
    countSignIn("password", "second_factor_required");
    return { ok: true, next: "second_step", userId: check.user.id };
  }
  const { cookieValue, sessionId } = await signInUser(context.stores, check.user.id, {
    ipAddress: attempt.ipAddress,
    userAgent: attempt.userAgent,
  });
  countSignIn("password", "success");
  return { ok: true, next: factors.required ? "enrol" : "session", cookieValue, sessionId };
}
