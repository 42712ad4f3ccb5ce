/**
 * The signed-in user's own second factors (the security page): passkeys, the authenticator app, recovery codes. Every
 * function acts for the session's user only. Recovery codes come with the first factor, are shown once, and go with
 * the last. Changing the factors needs proof: the first one, the current password (a passkey or app works without the
 * password later, so whoever sets it up must know it); every later change, a second factor given in the last five
 * minutes. The last factor stays while the user's company requires one. A first factor raises the session to the
 * mfa level. Every factor added or removed, and new recovery codes, are mailed to the owner. An app waiting for its
 * first code belongs to the session that started it, for TOTP_ENROLMENT_MINUTES.
 */
import "server-only";
import { checkCurrentPassword, isFreshSignIn } from "@/lib/account/current-password";
import { secondFactorNotice } from "@/lib/account/account-notices";
import { localeOr, type Locale } from "@/lib/i18n/locales";
import type { FactorChange } from "@/lib/mail/account-mail";
import { wakeMailDelivery } from "@/lib/mail/mail-delivery";
import { requireSessionFor, type Actor, type SessionPerson } from "@/lib/rights/actor";
import { withSecondFactor } from "@/lib/session/authentication-level";
import type { AuthenticationMethod } from "@/lib/store/models/authentication";
import type { StoredPasskey } from "@/lib/store/models/second-factor";
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
  /** setting up the first factor asks for the password */
  askPassword: boolean;
  /** changing the factors set up needs one of them given first (in the last five minutes) */
  confirmFirst: boolean;
}

export interface OwnerProof {
  currentPassword?: string;
  ipAddress?: string;
  /** the page's language, for the notice mail (the user's preference when absent) */
  language?: Locale;
}

export async function securityView(actor: Actor): Promise<SecurityView> {
  const { context, session } = requireSessionFor(actor, "security_page");
  const [passkeys, totp, recoveryCodesLeft] = await Promise.all([
    context.stores.secondFactors.listPasskeys(session.user.id),
    context.stores.secondFactors.findTotp(session.user.id),
    context.stores.secondFactors.countUnusedRecoveryCodes(session.user.id),
  ]);
  const enrolment =
    totp && !totp.confirmedAt
      ? await pendingTotpEnrolment(context, session.user, { loginSessionId: session.id })
      : undefined;
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
    totp: totp?.confirmedAt ? "on" : enrolment ? "waiting" : "off",
    enrolment,
    recoveryCodesLeft,
    required: session.user.company.requireSecondFactor,
    mfa: session.amr.includes("mfa"),
    askPassword: passkeys.length === 0 && !totp?.confirmedAt,
    confirmFirst:
      (passkeys.length > 0 || Boolean(totp?.confirmedAt)) &&
      !(session.amr.includes("mfa") && isFreshSignIn(session.authTime)),
  };
}

/** The current password, however fresh the sign-in: the first factor is a way in without it from then on. */
async function proveOwner(user: SessionPerson, proof: OwnerProof): Promise<void> {
  if (!proof.currentPassword) throw new SecondFactorError("password_needed", "the current password is needed");
  const check = await checkCurrentPassword(user.context, user.session.user, proof.currentPassword, proof.ipAddress);
  if (check.ok) return;
  throw check.problem === "throttled"
    ? new SecondFactorError("throttled", "too many password attempts", check.retryAfterSeconds)
    : new SecondFactorError(check.problem, "the owner's proof is missing or wrong");
}

/** Tells the owner's address what changed (queued mail; the change stands whether or not it is delivered). */
async function notifyOwner(user: SessionPerson, change: FactorChange, language: Locale | undefined): Promise<void> {
  const { context, session } = user;
  const lang = language ?? localeOr(session.user.preferredLanguage);
  await context.stores.outbox.queue(await secondFactorNotice(context, session.user.email, lang, change), new Date());
  wakeMailDelivery();
}

const factorCount = (factors: { passkeys: number; totp: boolean }) => factors.passkeys + (factors.totp ? 1 : 0);

/**
 * Before the factors change (one added or removed, new recovery codes): with factors set up, only a session that
 * gave one of them in the last five minutes may change them, so that a session left open or stolen cannot add its
 * own key or take the owner's away; the first factor needs the current password.
 */
async function proveForFactors(user: SessionPerson, proof: OwnerProof): Promise<number> {
  const count = factorCount(await user.context.stores.secondFactors.count(user.session.user.id));
  if (count === 0) await proveOwner(user, proof);
  else if (!user.session.amr.includes("mfa") || !isFreshSignIn(user.session.authTime))
    throw new SecondFactorError("second_factor_needed", "confirm with a second factor first");
  return count;
}

/**
 * After a factor was added: a first one raises the session to mfa (its owner just proved the password, and holds the
 * new factor) and brings the recovery codes, shown once. When the sign-in happened stays as it was.
 */
async function afterEnrolment(
  user: SessionPerson,
  methods: AuthenticationMethod[],
  before: number,
): Promise<string[] | undefined> {
  if (before > 0) return undefined;
  const { session } = user;
  await user.context.stores.loginSessions.raise(session.id, withSecondFactor(session.amr, methods), session.authTime);
  return makeRecoveryCodes(user.context.stores.secondFactors, session.user.id);
}

export async function startAuthenticatorApp(actor: Actor, proof: OwnerProof): Promise<TotpEnrolment> {
  const user = requireSessionFor(actor, "security_page");
  await proveForFactors(user, proof);
  return startTotpEnrolment(user.context, user.session.user, { loginSessionId: user.session.id });
}

/**
 * Confirms the app with its first code, in the session that started it (its setting up was proved there); the
 * recovery codes when it is the first factor.
 */
export async function confirmAuthenticatorApp(
  actor: Actor,
  code: string,
  language?: Locale,
): Promise<string[] | undefined> {
  const user = requireSessionFor(actor, "security_page");
  const before = factorCount(await user.context.stores.secondFactors.count(user.session.user.id));
  const session = { loginSessionId: user.session.id };
  if (!(await checkTotpCode(user.context, user.session.user.id, code.trim(), session)))
    throw new SecondFactorError("wrong_code", "the code is not right");
  await notifyOwner(user, "app_added", language);
  return afterEnrolment(user, ["otp"], before);
}

export async function passkeyOptionsForRegistration(actor: Actor, proof: OwnerProof) {
  const user = requireSessionFor(actor, "security_page");
  await proveForFactors(user, proof);
  return passkeyRegistrationOptions(user.context, user.session.user);
}

/** Adds a passkey; the recovery codes when it is the first factor. */
export async function addPasskey(
  actor: Actor,
  response: CeremonyResponse,
  name: string,
  proof: OwnerProof,
): Promise<string[] | undefined> {
  const user = requireSessionFor(actor, "security_page");
  const before = await proveForFactors(user, proof);
  const methods = await registerPasskey(user.context, user.session.user, response, name);
  await notifyOwner(user, "passkey_added", proof.language);
  return afterEnrolment(user, methods, before);
}

export async function renameOwnPasskey(actor: Actor, passkeyId: string, name: string): Promise<void> {
  const { context, session } = requireSessionFor(actor, "security_page");
  const trimmed = name.trim().slice(0, 100);
  if (!trimmed || !(await context.stores.secondFactors.renamePasskey(session.user.id, passkeyId, trimmed)))
    throw new SecondFactorError("not_enrolled", "no such passkey of yours");
}

/** Before a factor goes: the proof for a change, and the last one stays while the company requires one. */
async function beforeRemoval(user: SessionPerson, proof: OwnerProof): Promise<void> {
  const count = await proveForFactors(user, proof);
  if (count === 1 && user.session.user.company.requireSecondFactor)
    throw new SecondFactorError("last_factor", "the company requires a second factor");
}

/** With the last factor gone, its recovery codes go too: they only ever stood in for it. */
async function afterRemoval(user: SessionPerson): Promise<void> {
  const { secondFactors } = user.context.stores;
  if (factorCount(await secondFactors.count(user.session.user.id)) === 0)
    await secondFactors.replaceRecoveryCodes(user.session.user.id, [], new Date());
}

export async function removeOwnPasskey(actor: Actor, passkeyId: string, proof: OwnerProof): Promise<void> {
  const user = requireSessionFor(actor, "security_page");
  if (
    !(await user.context.stores.secondFactors.listPasskeys(user.session.user.id)).some(
      (passkey) => passkey.id === passkeyId,
    )
  )
    throw new SecondFactorError("not_enrolled", "no such passkey of yours");
  await beforeRemoval(user, proof);
  await user.context.stores.secondFactors.deletePasskey(user.session.user.id, passkeyId);
  await afterRemoval(user);
  await notifyOwner(user, "passkey_removed", proof.language);
}

export async function removeAuthenticatorApp(actor: Actor, proof: OwnerProof): Promise<void> {
  const user = requireSessionFor(actor, "security_page");
  const factor = await user.context.stores.secondFactors.findTotp(user.session.user.id);
  if (!factor) throw new SecondFactorError("not_enrolled", "no authenticator app is set up");
  if (factor.confirmedAt) await beforeRemoval(user, proof);
  const confirmed = await user.context.stores.secondFactors.deleteTotp(user.session.user.id);
  await afterRemoval(user);
  if (confirmed) await notifyOwner(user, "app_removed", proof.language);
}

/** New recovery codes (the old ones stop working), after a second factor just given; shown once. */
export async function renewRecoveryCodes(actor: Actor, proof: OwnerProof): Promise<string[]> {
  const user = requireSessionFor(actor, "security_page");
  if ((await proveForFactors(user, proof)) === 0) throw new SecondFactorError("not_enrolled", "no second factor yet");
  const codes = await makeRecoveryCodes(user.context.stores.secondFactors, user.session.user.id);
  await notifyOwner(user, "recovery_renewed", proof.language);
  return codes;
}
