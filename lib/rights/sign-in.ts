/**
 * Signing in with a user name and password. Public: the credentials are the proof, checked under the sign-in
 * throttle (lib/session/verify-credentials.ts); a success starts a login session and is audited.
 */
import "server-only";
import type { ServiceContext } from "@/lib/service-context";
import { signInUser } from "@/lib/session/login-session";
import { verifyCredentials, type CredentialCheck } from "@/lib/session/verify-credentials";

export type SignInResult =
  Exclude<CredentialCheck, { ok: true }> | { ok: true; cookieValue: string; sessionId: string };

export async function signIn(
  context: ServiceContext,
  attempt: { username: string; password: string; ipAddress?: string; userAgent?: string },
): Promise<SignInResult> {
  const check = await verifyCredentials(context.db, attempt.username, attempt.password, attempt.ipAddress);
  if (!check.ok) return check;
  const { cookieValue, sessionId } = await signInUser(context.db, check.user.id, {
    ipAddress: attempt.ipAddress,
    userAgent: attempt.userAgent,
  });
  return { ok: true, cookieValue, sessionId };
}
