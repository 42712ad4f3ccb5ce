/** Protocol errors as JSON (RFC 6749 §5.2): the description reaches the caller, the private detail only the log. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { OptiGateError } from "@/lib/errors/optigate-error";
import { invalidClient, invalidGrant, OAuthError } from "@/lib/errors/oauth-error";
import { oauthErrorAnswer } from "@/lib/http/error-answers";
import { logger } from "@/lib/observability/logger";

afterEach(() => vi.restoreAllMocks());

describe("oauthErrorAnswer", () => {
  it("sends the description and keeps the detail for the log", () => {
    const info = vi.spyOn(logger, "info").mockImplementation(() => undefined);
    const response = oauthErrorAnswer(
      invalidGrant("the refresh token was already used", "its family has been revoked"),
    );
    expect([response.status, JSON.parse(response.body)]).toEqual([
      400,
      { error: "invalid_grant", error_description: "the refresh token was already used" },
    ]);
    expect(response.body).not.toContain("family");
    expect(info).toHaveBeenCalledWith(
      expect.objectContaining({ error: "invalid_grant", detail: "its family has been revoked" }),
      "protocol error",
    );
  });

  it("answers invalid_client with 401 and, after HTTP Basic, WWW-Authenticate", () => {
    const response = oauthErrorAnswer(invalidClient("client authentication failed"), { basicAuthentication: true });
    expect([response.status, response.headers["WWW-Authenticate"], response.headers["Cache-Control"]]).toEqual([
      401,
      'Basic realm="OptiGate", charset="UTF-8"',
      "no-store",
    ]);
  });

  it("turns anything unexpected into server_error without its message", () => {
    vi.spyOn(logger, "error").mockImplementation(() => undefined);
    const response = oauthErrorAnswer(new Error("SELECT * FROM secrets failed"));
    expect([response.status, JSON.parse(response.body)]).toEqual([
      500,
      { error: "server_error", error_description: "an unexpected error occurred" },
    ]);
  });

  it("gives protocol errors the literal code of the base class", () => {
    const error = new OAuthError("invalid_scope", "scope x is unknown");
    expect([error instanceof OptiGateError, error.code, error.name]).toEqual([true, "invalid_scope", "OAuthError"]);
  });
});
