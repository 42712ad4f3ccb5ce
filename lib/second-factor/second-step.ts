/**
 * The second step of a sign-in (or a step-up in a session): a code from the authenticator app, or a recovery code,
 * checked under the sign-in throttle's counters (reserved before the check, per account and per address), audited
 * either way. A passkey is the other way through (passkeys.ts).
 */
import type { DataAccess } from "@/lib/service-context";
import type { User } from "@/lib/store/models/user";
import type { AuthenticationMethod } from "@/lib/store/models/authentication";
import {
  lockDetails,
  recordFailedSignIn,
  recordRightPassword,
  reserveSignInAttempt,
} from "@/lib/session/login-throttle";
import { redeemRecoveryCode } from "@/lib/second-factor/recovery-codes";
import { SecondFactorError } from "@/lib/second-factor/second-factor-error";
import { checkTotpCode } from "@/lib/second-factor/totp";

type StepContext = DataAccess & { config: { secretKey: string } };

/** The methods a right code proves (RFC 8176 `otp`: a recovery code is a one-time code too); refusals throw. */
export async function verifySecondStepCode(
  context: StepContext,
  user: User,
  typed: string,
  ipAddress: string | undefined,
  now = new Date(),
): Promise<AuthenticationMethod[]> {
  // Recovery codes stand in for a factor; without one set up there is nothing they could stand in for.
  const factors = await context.stores.secondFactors.count(user.id);
  if (factors.passkeys === 0 && !factors.totp)
    throw new SecondFactorError("not_enrolled", "no second factor is set up");
  const reservation = await reserveSignInAttempt(context.stores.throttles, user.email, ipAddress, now);
  if (!reservation.ok) throw new SecondFactorError("throttled", "too many attempts", reservation.retryAfterSeconds);
  const code = typed.trim().slice(0, 40);
  const right =
    (await checkTotpCode(context, user.id, code.replace(/\s/g, ""), undefined, now)) ||
    (await redeemRecoveryCode(context.stores.secondFactors, user.id, code, now));
  const lockedUntil = right
    ? null
    : await recordFailedSignIn(context.stores.throttles, reservation, "second_factor", now);
  await context.stores.audit.record({
    type: right ? "user.second_factor_used" : "user.second_factor_failed",
    userId: user.id,
    companyId: user.companyId,
    ipAddress,
    details: { method: "code", ...lockDetails(lockedUntil) },
  });
  if (!right) throw new SecondFactorError("wrong_code", "the code is not right, or was used already");
  await recordRightPassword(context.stores.throttles, reservation, { clearAccount: true });
  return ["otp"];
}
