/**
 * The platform API's errors as RFC 9457 problem details (`application/problem+json` with type, title, status and
 * detail). Authentication problems carry the RFC 6750 challenge: invalid_token with 401, insufficient_scope with the
 * scope the route needs and 403, and RFC 9470's insufficient_user_authentication with the acr level needed and 401. Problem types are URNs, listed in the OpenAPI document.
 */
import { OptiGateError } from "@/lib/errors/optigate-error";

export const PROBLEM_TYPES = {
  "bad-request": [400, "The request is malformed"],
  "invalid-token": [401, "The access token is missing, invalid or expired"],
  "insufficient-user-authentication": [401, "The sign-in behind the access token is not strong enough"],
  "insufficient-scope": [403, "The access token lacks the scope this route needs"],
  forbidden: [403, "Your company may not do this"],
  "not-found": [404, "There is no such resource"],
  "method-not-allowed": [405, "This method is not allowed here"],
  "not-acceptable": [406, "No coding of this resource is acceptable to the client"],
  conflict: [409, "The request conflicts with the current state"],
  "precondition-failed": [412, "The resource was changed since you read it"],
  "payload-too-large": [413, "The request body is too large"],
  "range-not-satisfiable": [416, "The range starts past the end of the body"],
  "unsupported-media-type": [415, "The request body must be JSON"],
  unprocessable: [422, "The request cannot be carried out"],
  "precondition-required": [428, "This change needs an If-Match header"],
  "server-error": [500, "Something went wrong on our side"],
  "service-unavailable": [503, "The service cannot answer just now"],
} as const satisfies Record<string, readonly [number, string]>;

export type ProblemType = keyof typeof PROBLEM_TYPES;

export const problemTypeUri = (type: ProblemType) => `urn:optigate:problem:${type}`;

/** A problem of the platform API (RFC 9457): its code is the problem type; `detail` is the body's public detail. */
export class ApiProblem extends OptiGateError<ProblemType> {
  constructor(
    readonly code: ProblemType,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }

  get status(): number {
    return PROBLEM_TYPES[this.code][0];
  }
}

const quoted = (text: string) => `"${text.replace(/["\\\\]/g, "'")}"`;

export const invalidTokenProblem = (detail: string) =>
  new ApiProblem("invalid-token", detail, {
    "WWW-Authenticate": `Bearer realm="OptiGate", error="invalid_token", error_description=${quoted(detail)}`,
  });

/** RFC 9470: the user must sign in again at the level named, and the client get a new token. */
export const insufficientUserAuthenticationProblem = (detail: string, acr: string) =>
  new ApiProblem("insufficient-user-authentication", detail, {
    "WWW-Authenticate": `Bearer realm="OptiGate", error="insufficient_user_authentication", error_description=${quoted(detail)}, acr_values="${acr}"`,
  });

export const insufficientScopeProblem = (scope: string) =>
  new ApiProblem("insufficient-scope", `This route needs the scope ${scope}.`, {
    "WWW-Authenticate": `Bearer realm="OptiGate", error="insufficient_scope", scope="${scope}"`,
  });
