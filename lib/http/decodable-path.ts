/**
 * A request path whose percent-encoding does not decode (`%ZZ`, a cut or invalid UTF-8 sequence) names no resource:
 * it is refused with 400 where requests enter, before a router decodes it and fails with a 500.
 */
export const UNDECODABLE_PATH_REFUSAL = "The path is not validly percent-encoded.";

/** `target`: the request target or a path; its query is not looked at. */
export function isDecodablePath(target: string | undefined): boolean {
  try {
    decodeURIComponent((target ?? "/").split("?", 1)[0]);
    return true;
  } catch {
    return false;
  }
}
