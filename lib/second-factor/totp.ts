/**
 * Authenticator apps (TOTP, RFC 6238) through otpauth: a 160-bit secret, SHA-1, 6 digits, 30-second steps, a code
 * of the step before or after accepted too (clocks drift), and each step used at most once. The secret is sealed
 * with a key from SECRET_KEY at rest. Enrolment shows it as a QR code (the qrcode package, as SVG) and as text, and
 * ends with a first code.
 */
import { Secret, TOTP } from "otpauth";
import type { DataAccess } from "@/lib/service-context";
import QRCode from "qrcode";
import { seal, unseal } from "@/lib/crypto/secret-box";
import type { User } from "@/lib/store/models/user";
import { SecondFactorError } from "@/lib/second-factor/second-factor-error";
import { TOTP_ENROLMENT_MINUTES } from "@/lib/config/policy";

type TotpContext = DataAccess & { config: { secretKey: string } };

const PERIOD_SECONDS = 30;
const CODE = /^\d{6}$/;

export interface TotpEnrolment {
  /** base32, for typing into the app */
  secret: string;
  /** the otpauth:// URI the QR code holds */
  uri: string;
  /** the QR code as an SVG document */
  qrSvg: string;
}

const totpOf = (secret: string, email: string) =>
  new TOTP({ issuer: "OptiGate", label: email, secret: Secret.fromBase32(secret), digits: 6, period: PERIOD_SECONDS });

async function enrolmentOf(secret: string, email: string): Promise<TotpEnrolment> {
  const uri = totpOf(secret, email).toString();
  return { secret, uri, qrSvg: await QRCode.toString(uri, { type: "svg", margin: 2, errorCorrectionLevel: "M" }) };
}

/** Where an enrolment counts: the login session that started it, for TOTP_ENROLMENT_MINUTES. */
export interface EnrolmentSession {
  loginSessionId: string;
}

const enrolmentCutoff = (now: Date) => new Date(now.getTime() - TOTP_ENROLMENT_MINUTES * 60_000);

/**
 * A new secret waiting for its first code in this login session (one waiting before is replaced); refused when one
 * is confirmed.
 */
export async function startTotpEnrolment(
  context: TotpContext,
  user: User,
  session: EnrolmentSession,
  now = new Date(),
): Promise<TotpEnrolment> {
  const secret = new Secret({ size: 20 }).base32;
  const sealedSecret = seal(secret, context.config.secretKey, "totp-secret");
  if (!(await context.stores.secondFactors.savePendingTotp({ userId: user.id, sealedSecret, ...session }, now)))
    throw new SecondFactorError("already_enrolled", "an authenticator app is set up already");
  return enrolmentOf(secret, user.email);
}

/**
 * The enrolment waiting for its first code, to show again to the session that started it; undefined when none
 * waits, when another session started it, or when it is older than TOTP_ENROLMENT_MINUTES.
 */
export async function pendingTotpEnrolment(
  context: TotpContext,
  user: User,
  session: EnrolmentSession,
  now = new Date(),
): Promise<TotpEnrolment | undefined> {
  const factor = await context.stores.secondFactors.findTotp(user.id);
  if (!factor || factor.confirmedAt || factor.loginSessionId !== session.loginSessionId) return undefined;
  if (factor.createdAt <= enrolmentCutoff(now)) return undefined;
  return enrolmentOf(unseal(factor.sealedSecret, context.config.secretKey, "totp-secret"), user.email);
}

/**
 * Checks a code of the user's app and uses its time step; `confirmIn`: the first code of an enrolment, which
 * confirms it, in the session that started it. False for a wrong code, one of a step used already, or no app
 * (confirmed, or waiting for this session when confirming).
 */
export async function checkTotpCode(
  context: TotpContext,
  userId: string,
  code: string,
  confirmIn: EnrolmentSession | undefined,
  now = new Date(),
): Promise<boolean> {
  if (!CODE.test(code)) return false;
  const factor = await context.stores.secondFactors.findTotp(userId);
  if (!factor || Boolean(factor.confirmedAt) === Boolean(confirmIn)) return false;
  const secret = unseal(factor.sealedSecret, context.config.secretKey, "totp-secret");
  const delta = totpOf(secret, "").validate({ token: code, timestamp: now.getTime(), window: 1 });
  if (delta === null) return false;
  const step = Math.floor(now.getTime() / 1000 / PERIOD_SECONDS) + delta;
  const confirm = confirmIn && { ...confirmIn, startedAfter: enrolmentCutoff(now) };
  return context.stores.secondFactors.useTotpStep(userId, step, confirm, now);
}
