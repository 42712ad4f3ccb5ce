/**
 * The signed-in user's own second factors (the security page): passkeys, the authenticator app, recovery codes. Every
 * function acts for the session's user only. Recovery codes come with the first factor and are shown once. Taking
 * away the last factor, or making new recovery codes, needs the owner's proof (a sign-in of the last five minutes, or
 * the password); the last factor stays while the user's company requires one. Enrolling a factor raises the session
 * to the mfa level (the new factor was just used).
 */
import "server-only";
import { confirmAccountOwner, isFreshSignIn } from "@/lib/account/current-password";
import { requireUser, type Actor, type SignedInUser } from "@/lib/rights/actor";
import { withSecondFactor, type AuthenticationMethod } from "@/lib/session/authentication-level";
import { deletePasskey, listPasskeys, renamePasskey, type StoredPasskey } from "@/lib/store/passkey-store";
import { raiseLoginSession } from "@/lib/store/login-session-store";
import { countUnusedRecoveryCodes } from "@/lib/store/recovery-code-store";
import { countSecondFactors } from "@/lib/store/second-factor-store";
import { deleteTotpFactor, findTotpFactor } from "@/lib/store/totp-store";
import { passkeyRegistrationOptions, registerPasskey, type CeremonyResponse } from "@/lib/second-factor/passkeys";
import { makeRecoveryCodes } from "@/lib/second-factor/recovery-codes";
import { SecondFactorError } from "@/lib/second-factor/second-factor-error";
import { checkTotpCode, pendingTotpEnrolment, startTotpEnrolment, type TotpEnrolment } from "@/lib/second-factor/totp";

export { SecondFactorError };
export type { TotpEnrolment };

export interface SecurityView {
  passkeys: Omit<StoredPasskey, "publicKey" | "counter" | "userId">[];
  totp: "off" | "waiting" | "on";
  /** the app's secret while it waits for its first code (for the user's own eyes) */
  enrolment?: TotpEnrolment;
  recoveryCodesLeft: number;
  /** the user's company requires a second factor */
  required: boolean;
  /** the session already has the mfa level */
  mfa: boolean;
  /** removing the last factor or making new codes asks for the password (the sign-in is older than five minutes) */
  askPassword: boolean;
}

export interface OwnerProof {
  currentPassword?: string;
  ipAddress?: string;
}

export async function securityView(actor: Actor): Promise<SecurityView> {
  const { context, session } = requireUser(actor);
  const [passkeys, totp, recoveryCodesLeft] = await Promise.all([
    listPasskeys(context.db, session.user.id),
    findTotpFactor(context.db, session.user.id),
    countUnusedRecoveryCodes(context.db, session.user.id),
  ]);
  return {
    passkeys: passkeys.map(({ id, credentialId, transports, deviceType, backedUp, name, createdAt, lastUsedAt }) => ({
      id,
      credentialId,
      transports,
      deviceType,
      backedUp,
      name,
      createdAt,
      lastUsedAt,
    })),
    totp: !totp ? "off" : totp.confirmedAt ? "on" : "waiting",
    enrolment: totp && !totp.confirmedAt ? await pendingTotpEnrolment(context, session.user) : undefined,
    recoveryCodesLeft,
    required: session.user.company.requireSecondFactor,
    mfa: session.amr.includes("mfa"),
    askPassword: !isFreshSignIn(session.authTime),
  };
}

async function proveOwner(user: SignedInUser, proof: OwnerProof): Promise<void> {
  const check = await confirmAccountOwner(user.context.db, user.session, proof);
  if (check.ok) return;
  throw check.problem === "throttled"
    ? new SecondFactorError("throttled", "too many password attempts", check.retryAfterSeconds)
    : new SecondFactorError(check.problem, "the owner's proof is missing or wrong");
}

/** After a first factor: the session rises to mfa with it, and the user gets recovery codes (shown once). */
async function afterEnrolment(user: SignedInUser, methods: AuthenticationMethod[]): Promise<string[] | undefined> {
  const { db } = user.context;
  await raiseLoginSession(db, user.session.id, withSecondFactor(user.session.amr, methods), new Date());
  const factors = await countSecondFactors(db, user.session.user.id);
  const first = factors.passkeys + (factors.totp ? 1 : 0) === 1;
  return first ? makeRecoveryCodes(db, user.session.user.id) : undefined;
}

export function startAuthenticatorApp(actor: Actor): Promise<TotpEnrolment> {
  const { context, session } = requireUser(actor);
  return startTotpEnrolment(context, session.user);
}

/** Confirms the app with its first code; the recovery codes when it is the first factor. */
export async function confirmAuthenticatorApp(actor: Actor, code: string): Promise<string[] | undefined> {
  const user = requireUser(actor);
  if (!(await checkTotpCode(user.context, user.session.user.id, code.trim(), true)))
    throw new SecondFactorError("wrong_code", "the code is not right");
  return afterEnrolment(user, ["otp"]);
}

export function passkeyOptionsForRegistration(actor: Actor) {
  const { context, session } = requireUser(actor);
  return passkeyRegistrationOptions(context, session.user);
}

/** Adds a passkey; the recovery codes when it is the first factor. */
export async function addPasskey(
  actor: Actor,
  response: CeremonyResponse,
  name: string,
): Promise<string[] | undefined> {
  const user = requireUser(actor);
  return afterEnrolment(user, await registerPasskey(user.context, user.session.user, response, name));
}

export async function renameOwnPasskey(actor: Actor, passkeyId: string, name: string): Promise<void> {
  const { context, session } = requireUser(actor);
  const trimmed = name.trim().slice(0, 100);
  if (!trimmed || !(await renamePasskey(context.db, session.user.id, passkeyId, trimmed)))
    throw new SecondFactorError("not_enrolled", "no such passkey of yours");
}

/** Before a factor goes: the last one needs the owner's proof, and stays while the company requires one. */
async function beforeRemoval(user: SignedInUser, proof: OwnerProof): Promise<void> {
  const factors = await countSecondFactors(user.context.db, user.session.user.id);
  if (factors.passkeys + (factors.totp ? 1 : 0) > 1) return;
  if (user.session.user.company.requireSecondFactor)
    throw new SecondFactorError("last_factor", "the company requires a second factor");
  await proveOwner(user, proof);
}

export async function removeOwnPasskey(actor: Actor, passkeyId: string, proof: OwnerProof): Promise<void> {
  const user = requireUser(actor);
  if (!(await listPasskeys(user.context.db, user.session.user.id)).some((passkey) => passkey.id === passkeyId))
    throw new SecondFactorError("not_enrolled", "no such passkey of yours");
  await beforeRemoval(user, proof);
  await deletePasskey(user.context.db, user.session.user.id, passkeyId);
}

export async function removeAuthenticatorApp(actor: Actor, proof: OwnerProof): Promise<void> {
  const user = requireUser(actor);
  const factor = await findTotpFactor(user.context.db, user.session.user.id);
  if (!factor) throw new SecondFactorError("not_enrolled", "no authenticator app is set up");
  if (factor.confirmedAt) await beforeRemoval(user, proof);
  await deleteTotpFactor(user.context.db, user.session.user.id);
}

/** New recovery codes (the old ones stop working), with the owner's proof; shown once. */
export async function renewRecoveryCodes(actor: Actor, proof: OwnerProof): Promise<string[]> {
  const user = requireUser(actor);
  const factors = await countSecondFactors(user.context.db, user.session.user.id);
  if (factors.passkeys === 0 && !factors.totp) throw new SecondFactorError("not_enrolled", "no second factor yet");
  await proveOwner(user, proof);
  return makeRecoveryCodes(user.context.db, user.session.user.id);
}
