/**
 * Why a sign-in at a company's identity provider did not give an identity, as a code the sign-in pages switch on to
 * show a localized page (never a server error): the provider is configured so that it cannot be used, could not be
 * reached, answered with an OAuth error of its own, or answered something OptiGate refuses (state, issuer, nonce,
 * audience, signature, tenant, hosted domain…). The message says what happened in a sentence, for the log and the
 * company's "test connection"; `detail` holds what the provider or the library said, for the log only.
 */
import { OptiGateError } from "@/lib/errors/optigate-error";

type CompanySignInProblem = "misconfigured" | "provider_unreachable" | "provider_error" | "invalid_response";

export class CompanySignInFailed extends OptiGateError<CompanySignInProblem> {
  /** provider_error: the provider's error code (access_denied, login_required, invalid_client…). */
  readonly upstreamError?: string;
  readonly detail?: string;

  constructor(
    readonly code: CompanySignInProblem,
    message: string,
    options: { upstreamError?: string; detail?: string; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.upstreamError = options.upstreamError;
    this.detail = options.detail;
  }
}
