/**
 * Request parameters of the protocol endpoints: from the query (GET) or an application/x-www-form-urlencoded body
 * (POST). A parameter sent twice is an error (RFC 6749 §3.1 and §3.2), but for `resource` (RFC 8707 §2), whose
 * values formValues reads; unknown ones are kept and ignored by callers.
 */
import { bodyText, isFormRequest } from "@/lib/http/form-body";
import type { ProtocolRequest } from "@/lib/http/protocol-message";
import { invalidRequest } from "@/lib/errors/oauth-error";

export type Parameters = ReadonlyMap<string, string>;

/** RFC 8707 §2: a request may name several resources. */
export const REPEATABLE_PARAMETERS: ReadonlySet<string> = new Set(["resource"]);

/** The parameters by name; of a repeatable one, the first value. */
function singleValued(params: URLSearchParams): Map<string, string> {
  const result = new Map<string, string>();
  for (const [name, value] of params) {
    if (!result.has(name)) result.set(name, value);
    else if (!REPEATABLE_PARAMETERS.has(name)) throw invalidRequest(`parameter "${name}" must not be repeated`);
  }
  return result;
}

/** The form body of a POST, read already; other content types are refused. */
export function formParameters(request: ProtocolRequest): Map<string, string> {
  if (!isFormRequest(request)) throw invalidRequest("the request body must be application/x-www-form-urlencoded");
  return singleValued(new URLSearchParams(bodyText(request.body)));
}

/** Every value of a repeatable parameter in the form body of a POST that formParameters accepted. */
export function formValues(request: ProtocolRequest, name: "resource"): string[] {
  return new URLSearchParams(bodyText(request.body)).getAll(name);
}

/** A non-empty parameter, or undefined. Empty parameters count as absent (RFC 6749 §3.1). */
export function optional(params: Parameters, name: string): string | undefined {
  const value = params.get(name);
  return value === undefined || value === "" ? undefined : value;
}

/** A non-empty query or form parameter (its first value), or undefined. */
export function firstValue(params: URLSearchParams, name: string): string | undefined {
  const value = params.get(name);
  return value === null || value === "" ? undefined : value;
}
