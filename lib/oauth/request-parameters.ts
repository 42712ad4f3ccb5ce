/**
 * Request parameters of the protocol endpoints: from the query (GET) or an application/x-www-form-urlencoded body
 * (POST). A parameter sent twice is an error (RFC 6749 §3.1 and §3.2); unknown ones are kept and ignored by callers.
 */
import { bodyText, isFormRequest } from "@/lib/http/form-body";
import type { ProtocolRequest } from "@/lib/http/protocol-message";
import { invalidRequest } from "@/lib/errors/oauth-error";

export type Parameters = ReadonlyMap<string, string>;

function singleValued(params: URLSearchParams): Map<string, string> {
  const result = new Map<string, string>();
  for (const [name, value] of params) {
    if (result.has(name)) throw invalidRequest(`parameter "${name}" must not be repeated`);
    result.set(name, value);
  }
  return result;
}

/** The form body of a POST, read already; other content types are refused. */
export function formParameters(request: ProtocolRequest): Map<string, string> {
  if (!isFormRequest(request)) throw invalidRequest("the request body must be application/x-www-form-urlencoded");
  return singleValued(new URLSearchParams(bodyText(request.body)));
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
