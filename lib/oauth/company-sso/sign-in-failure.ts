/**
 * What openid-client and the outbound fetch throw, as a CompanySignInFailed: an OAuth error from the provider
 * (the authorization response's `error`, a token or userinfo error body or challenge) is provider_error with its
 * code; no answer, a refused address or an HTTP 5xx is provider_unreachable; any answer the library refuses
 * (state, iss, nonce, aud, azp, exp, signature, a malformed document) is invalid_response.
 */
import {
  AuthorizationResponseError,
  ClientError,
  ResponseBodyError,
  WWWAuthenticateChallengeError,
} from "openid-client";
import { OutboundFetchFailed } from "@/lib/http/outbound-fetch";
import { CompanySignInFailed } from "@/lib/oauth/company-sso/company-sign-in-failed";

/** RFC 6749 §5.2: an error code is printable ASCII without `"` and `\`; anything else is not passed on. */
const ERROR_CODE = /^[\x20\x21\x23-\x5b\x5d-\x7e]{1,100}$/;

function providerError(error: string | undefined, description: string | undefined, cause: unknown) {
  const code = error && ERROR_CODE.test(error) ? error : "unrecognized_error";
  return new CompanySignInFailed("provider_error", `the provider answered ${code}`, {
    upstreamError: code,
    detail: description,
    cause,
  });
}

/** The error and its causes, outermost first. */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let each = error; each !== undefined && chain.length < 10; each = (each as Error).cause) {
    chain.push(each);
    if (!(each instanceof Error)) break;
  }
  return chain;
}

/** The failure as a CompanySignInFailed, or undefined when it is not about the provider (a bug: let it through). */
export function companySignInFailure(error: unknown): CompanySignInFailed | undefined {
  if (error instanceof CompanySignInFailed) return error;
  if (error instanceof AuthorizationResponseError || error instanceof ResponseBodyError)
    return providerError(error.error, error.error_description, error);
  if (error instanceof WWWAuthenticateChallengeError)
    return providerError(error.cause[0]?.parameters.error ?? "invalid_client", undefined, error);
  const chain = causes(error);
  const fetchFailure = chain.find((each) => each instanceof OutboundFetchFailed);
  if (fetchFailure) {
    const unreachable = fetchFailure.code !== "too_large" && fetchFailure.code !== "not_https";
    return new CompanySignInFailed(unreachable ? "provider_unreachable" : "invalid_response", fetchFailure.message, {
      cause: error,
    });
  }
  if (!(error instanceof ClientError)) return undefined;
  const status = chain.find((each) => each instanceof Response)?.status;
  if (status !== undefined && status >= 500)
    return new CompanySignInFailed("provider_unreachable", `the provider answered HTTP ${status}`, { cause: error });
  const innermost = chain.filter((each) => each instanceof Error).at(-1) as Error;
  return new CompanySignInFailed("invalid_response", `the provider's answer was refused: ${innermost.message}`, {
    detail: status === undefined ? undefined : `HTTP ${status}`,
    cause: error,
  });
}
