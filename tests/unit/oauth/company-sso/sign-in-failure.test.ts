import { AuthorizationResponseError, ClientError, ResponseBodyError } from "openid-client";
import { describe, expect, it } from "vitest";
import { OutboundFetchFailed } from "@/lib/http/outbound-fetch";
import { companySignInFailure } from "@/lib/oauth/company-sso/sign-in-failure";

const callbackError = (query: string) =>
  new AuthorizationResponseError("authorization response from the server is an error", {
    cause: new URLSearchParams(query),
  });
const statusError = (status: number) =>
  new ClientError("unexpected HTTP response status code", { cause: new Response("", { status }) });
/** The failure's code, message, upstreamError and detail, as a plain object. */
const summary = (error: unknown) => {
  const failure = companySignInFailure(error);
  return failure && { ...failure, message: failure.message };
};

describe("companySignInFailure", () => {
  it("passes the provider's error code on, its description to the log only", () => {
    expect(summary(callbackError("error=access_denied&error_description=The+user+cancelled"))).toMatchObject({
      code: "provider_error",
      message: "the provider answered access_denied",
      upstreamError: "access_denied",
      detail: "The user cancelled",
    });
    const body = new ResponseBodyError("server responded with an error in the response body", {
      cause: { error: "invalid_grant" },
      response: new Response("", { status: 400 }),
    });
    expect(summary(body)).toMatchObject({ code: "provider_error", upstreamError: "invalid_grant" });
  });

  it("does not pass on an error code outside RFC 6749's characters", () => {
    expect(summary(callbackError('error=<script>"'))?.upstreamError).toBe("unrecognized_error");
  });

  it("tells a provider that fails (5xx) from an answer OptiGate refuses", () => {
    expect(summary(statusError(503))).toMatchObject({
      code: "provider_unreachable",
      message: "the provider answered HTTP 503",
    });
    expect(summary(statusError(404))).toMatchObject({
      code: "invalid_response",
      message: "the provider's answer was refused: unexpected HTTP response status code",
      detail: "HTTP 404",
    });
  });

  it("finds the outbound fetch's failure among the causes", () => {
    const wrapped = (failure: OutboundFetchFailed) => new ClientError("something went wrong", { cause: failure });
    expect(summary(wrapped(new OutboundFetchFailed("timeout", "no answer")))).toMatchObject({
      code: "provider_unreachable",
      message: "no answer",
    });
    expect(summary(wrapped(new OutboundFetchFailed("too_large", "too much")))).toMatchObject({
      code: "invalid_response",
      message: "too much",
    });
  });

  it("leaves errors that are not about the provider alone", () => {
    expect(companySignInFailure(new TypeError("a bug"))).toBeUndefined();
  });
});
