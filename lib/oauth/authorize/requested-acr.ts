/**
 * The authentication level an authorization request asks for: `acr_values` (voluntary, in order of preference: the
 * first value OptiGate knows counts) or an essential `acr` in the `claims` parameter's `id_token` member (OpenID
 * Connect Core §3.1.2.1, §5.5.1.1). The claims parameter is read for that alone; its other members are ignored.
 */
import { invalidRequest } from "@/lib/errors/oauth-error";
import { ACR_VALUES_SUPPORTED, type Acr } from "@/lib/session/authentication-level";

/** Far longer than any claims request OptiGate reads: refused before parsing. */
const MAX_CLAIMS_LENGTH = 4096;

const firstKnown = (values: unknown[]): Acr | undefined =>
  values.find((value): value is Acr => ACR_VALUES_SUPPORTED.includes(value as Acr));

function essentialAcr(claims: string): Acr | undefined {
  if (claims.length > MAX_CLAIMS_LENGTH) throw invalidRequest("the claims parameter is too long");
  let parsed: unknown;
  try {
    parsed = JSON.parse(claims);
  } catch {
    throw invalidRequest("the claims parameter is not JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw invalidRequest("the claims parameter must be a JSON object");
  const acr = (parsed as { id_token?: { acr?: unknown } }).id_token?.acr;
  if (typeof acr !== "object" || acr === null) return undefined;
  const { essential, value, values } = acr as { essential?: unknown; value?: unknown; values?: unknown };
  if (essential !== true) return undefined;
  return firstKnown(Array.isArray(values) ? values : [value]);
}

export function requestedAcr(acrValues: string | undefined, claims: string | undefined): Acr | undefined {
  const essential = claims !== undefined ? essentialAcr(claims) : undefined;
  return essential ?? (acrValues !== undefined ? firstKnown(acrValues.split(" ")) : undefined);
}
