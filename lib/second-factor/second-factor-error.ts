/** Why a second factor was refused; each code has its sentence on the pages (SecondFactor.errors.*). */
import { OptiGateError } from "@/lib/errors/optigate-error";

export type SecondFactorProblem =
  | "invalid_response"
  | "challenge_unknown"
  | "unknown_credential"
  | "not_verified"
  | "wrong_code"
  | "throttled"
  | "not_enrolled"
  | "already_enrolled"
  | "password_needed"
  | "wrong_current_password"
  | "last_factor"
  | "second_factor_needed"
  | "sso_only";

export class SecondFactorError extends OptiGateError<SecondFactorProblem> {
  constructor(
    readonly code: SecondFactorProblem,
    message: string,
    readonly retryAfterSeconds = 0,
  ) {
    super(message);
  }
}
