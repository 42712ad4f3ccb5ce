/**
 * The second step of a sign-in, and signing in with a passkey. Who is at the step: the user whose password was right
 * (the pending sign-in cookie, lib/session/pending-sign-in.ts) or, for a step-up, the user of the current session.
 * A right second factor starts the session (or raises the current one) at the mfa level; a passkey alone signs in
 * at that level too (it is a key and a verified user). Nobody else can reach a step: without one, there is nobody to
 * ask. Each refused factor is counted for the metrics, and so is each step of a sign-in (not of a step-up).
 */
import { isSsoOnlyAddress } from "@/lib/session/sso-only-address";
import "server-only";
import type { ServiceContext } from "@/lib/service-context";
import { findActiveSession, signInUser, type ActiveSession } from "@/lib/session/login-session";
import { pendingSignInUser } from "@/lib/session/pending-sign-in";
import { withSecondFactor } from "@/lib/session/authentication-level";
import type { AuthenticationMethod } from "@/lib/store/models/authentication";
import type { SsoIdentity } from "@/lib/store/models/company-sso";
import type { UpstreamSession } from "@/lib/store/models/session";
import type { UserWithCompany } from "@/lib/store/models/user";
import { passkeySignInOptions, verifyPasskey, type CeremonyResponse } from "@/lib/second-factor/passkeys";
import { hasRecoveryCodeShape } from "@/lib/second-factor/recovery-codes";
import { countSecondFactorFailure, countSignIn, type SecondFactorLabel } from "@/lib/observability/metrics";
import { SecondFactorError } from "@/lib/second-factor/second-factor-error";
import { verifySecondStepCode } from "@/lib/second-factor/second-step";

export { SecondFactorError };

export type StepSubject =
  | {
      via: "pending";
      user: UserWithCompany;
      amr: AuthenticationMethod[];
      upstream?: UpstreamSession;
      link?: SsoIdentity;
    }
  | { via: "session"; user: UserWithCompany; session: ActiveSession };

export interface Client {
  ipAddress?: string;
  userAgent?: string;
}

/** Who is at the second step: the pending sign-in's user first, else the session's; undefined for nobody. */
export async function stepSubject(
  context: ServiceContext,
  cookies: { pending?: string; session?: string },
): Promise<StepSubject | undefined> {
  const pending = pendingSignInUser(cookies.pending, context.config.secretKey);
  const pendingUser = pending ? await context.stores.users.findActive(pending.userId) : null;
  if (pending && pendingUser)
    return { via: "pending", user: pendingUser, amr: pending.amr, upstream: pending.upstream, link: pending.link };
  const session = await findActiveSession(context.stores.loginSessions, cookies.session);
  return session ? { via: "session", user: session.user, session } : undefined;
}

/** What the step page offers the subject: a code field when an app is set up, a passkey button when one is. */
export async function stepChoices(context: ServiceContext, subject: StepSubject) {
  const factors = await context.stores.secondFactors.count(subject.user.id);
  return { passkey: factors.passkeys > 0, app: factors.totp, none: factors.passkeys === 0 && !factors.totp };
}

/** The step given: a new session (its cookie value) for a pending sign-in, or the current session raised. */
async function completeStep(
  context: ServiceContext,
  subject: StepSubject,
  given: { factor: SecondFactorLabel; methods: AuthenticationMethod[] },
  client: Client,
): Promise<{ cookieValue?: string }> {
  const { factor, methods } = given;
  if (subject.via === "session") {
    await context.stores.loginSessions.raise(
      subject.session.id,
      withSecondFactor(subject.session.amr, methods),
      new Date(),
    );
    return {};
  }
  const amr = withSecondFactor(subject.amr, methods);
  const details = { secondFactor: methods };
  if (subject.link) await context.stores.companySso.linkIdentity(subject.link, subject.user.id);
  const session = await signInUser(context.stores, subject.user, client, details, amr, subject.upstream);
  countSignIn(factor, "success");
  return session;
}

/** Runs a factor's check; a refusal is counted, and so is the sign-in it ends (a step-up is no sign-in). */
async function countingRefusals<T>(
  subject: StepSubject | undefined,
  factor: SecondFactorLabel,
  check: () => Promise<T>,
): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof SecondFactorError) {
      countSecondFactorFailure(factor, error.code);
      if (subject?.via !== "session") countSignIn(factor, error.code === "throttled" ? "locked" : "factor_failed");
    }
    throw error;
  }
}

export async function giveSecondFactorCode(
  context: ServiceContext,
  subject: StepSubject,
  code: string,
  client: Client,
): Promise<{ cookieValue?: string }> {
  // The two kinds of code have shapes of their own, so the shape tells which one was tried.
  const factor = hasRecoveryCodeShape(code) ? "recovery_code" : "totp";
  const methods = await countingRefusals(subject, factor, () =>
    verifySecondStepCode(context, subject.user, code, client.ipAddress),
  );
  return completeStep(context, subject, { factor, methods }, client);
}

/** Options for a passkey: the subject's passkeys at a step, any discoverable one when signing in without a name. */
export async function passkeyOptions(context: ServiceContext, subject: StepSubject | undefined) {
  if (subject && (await context.stores.secondFactors.listPasskeys(subject.user.id)).length === 0)
    throw new SecondFactorError("not_enrolled", "no passkey to ask for");
  return passkeySignInOptions(context, subject?.user.id);
}

/**
 * A passkey's assertion: at a step, it must be the subject's and completes the step; without one it signs its user
 * in on its own, at the mfa level.
 */
export async function signInWithPasskey(
  context: ServiceContext,
  subject: StepSubject | undefined,
  response: CeremonyResponse,
  client: Client,
): Promise<{ cookieValue?: string }> {
  const { userId, methods } = await countingRefusals(subject, "passkey", async () => {
    const verified = await verifyPasskey(context, response);
    if (subject && verified.userId !== subject.user.id)
      throw new SecondFactorError("unknown_credential", "another person's passkey");
    if (subject) return verified;
    const user = await context.stores.users.findActive(verified.userId);
    if (!user) throw new SecondFactorError("unknown_credential", "the passkey's user is not active");
    // SSO-only: the company's provider is the only way in, so that ending someone there ends them here too.
    if (await isSsoOnlyAddress(context.stores, user.email))
      throw new SecondFactorError("sso_only", "the company signs its people in at its own provider only");
    return verified;
  });
  if (subject) return completeStep(context, subject, { factor: "passkey", methods }, client);
  const session = await signInUser(
    context.stores,
    { id: userId },
    client,
    { passkey: true },
    withSecondFactor([], methods),
  );
  countSignIn("passkey", "success");
  return session;
}
