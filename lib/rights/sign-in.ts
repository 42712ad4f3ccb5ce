/**
 * Signing in. Public: the credentials are the proof, checked under the sign-in throttle
 * (lib/session/verify-credentials.ts). A user with a second factor gets no session for the password alone: the
 * second step comes first (lib/rights/second-step.ts). A user whose company requires a second factor and who has
 * none yet is signed in and led to enrol. A success starts a login session and is audited. Each attempt is counted
 * for the metrics: its refusals where the credentials are checked, the right passwords here. Where the address's
 * company allows only its own sign-in (SSO-only), a password is refused before it is checked.
 */
import "server-only";
import type { ServiceContext } from "@/lib/service-context";
import { countSignIn, type SignInFactor } from "@/lib/observability/metrics";
import { signInUser } from "@/lib/session/login-session";
import { verifyCredentials, type CredentialCheck } from "@/lib/session/verify-credentials";
import { PASSWORD_ONLY, type AuthenticationMethod } from "@/lib/store/models/authentication";
import type { SsoIdentity } from "@/lib/store/models/company-sso";
import type { UpstreamSession } from "@/lib/store/models/session";
import { isSsoOnlyAddress } from "@/lib/session/sso-only-address";
import type { AuditDetails } from "@/lib/store/models/audit-details";

export type SignInResult = Exclude<CredentialCheck, { ok: true }> | { ok: false; reason: "sso_only" } | SignedIn;

export type SignedIn =
  | {
      ok: true;
      next: "second_step";
      userId: string;
      amr: AuthenticationMethod[];
      upstream?: UpstreamSession;
      link?: SsoIdentity;
    }
  | { ok: true; next: "session" | "enrol"; cookieValue: string; sessionId: string };

interface Client {
  ipAddress?: string;
  userAgent?: string;
}

/**
 * The first factor was given (`amr`; at a company's provider: `upstream`, kept with the session): the second step for
 * a user with a factor unless the first already was multi-factor, else a session (led to enrol when the company
 * requires a factor that was not given). An account to link is linked only then, with the second factor given.
 */
export async function enterSignedIn(
  context: ServiceContext,
  userId: string,
  client: Client,
  how: {
    factor: SignInFactor;
    amr: readonly AuthenticationMethod[];
    details?: AuditDetails;
    upstream?: UpstreamSession;
    /** An account at the company's provider to link once the sign-in is complete (lib/rights/company-sso-link.ts). */
    link?: SsoIdentity;
    /** The user's company, for the audit trail, when the caller read it anyway. */
    companyId?: string;
  },
): Promise<SignedIn> {
  const factors = await context.stores.secondFactors.count(userId);
  const multiFactor = how.amr.includes("mfa");
  const { upstream, link } = how;
  if (!multiFactor && (factors.passkeys > 0 || factors.totp)) {
    countSignIn(how.factor, "second_factor_required");
    return { ok: true, next: "second_step", userId, amr: [...how.amr], upstream, link };
  }
  if (link) await context.stores.companySso.linkIdentity(link, userId);
  const user = { id: userId, companyId: how.companyId };
  const { cookieValue, sessionId } = await signInUser(context.stores, user, client, how.details, how.amr, upstream);
  countSignIn(how.factor, "success");
  return { ok: true, next: factors.required && !multiFactor ? "enrol" : "session", cookieValue, sessionId };
}

export async function signIn(
  context: ServiceContext,
  attempt: { username: string; password: string } & Client,
): Promise<SignInResult> {
  if (await isSsoOnlyAddress(context.stores, attempt.username)) return { ok: false, reason: "sso_only" };
  const check = await verifyCredentials(context, attempt.username, attempt.password, attempt.ipAddress);
  if (!check.ok) return check;
  const client = { ipAddress: attempt.ipAddress, userAgent: attempt.userAgent };
  const how = { factor: "password", amr: PASSWORD_ONLY, companyId: check.user.companyId } as const;
  return enterSignedIn(context, check.user.id, client, how);
}
