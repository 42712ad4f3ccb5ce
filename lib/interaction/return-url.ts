/**
 * The way back from OptiGate's pages into an authorization request: `/connect/authorize?<the request's parameters>`.
 * Only local paths are ever followed, so the login page cannot be turned into an open redirector.
 */

export const AUTHORIZE_PATH = "/connect/authorize";

export function authorizeReturnUrl(parameters: Iterable<[string, string]>): string {
  return `${AUTHORIZE_PATH}?${new URLSearchParams([...parameters])}`;
}

/** A local path (not `//host` or `/\host`), or undefined. */
export function safeLocalPath(value: string | null | undefined): string | undefined {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return undefined;
  try {
    const url = new URL(value, "http://local.invalid");
    return url.origin === "http://local.invalid" ? `${url.pathname}${url.search}` : undefined;
  } catch {
    return undefined;
  }
}

/** The parameters of an authorization request a return URL leads back to, or undefined for other paths. */
export function authorizeParametersOf(returnUrl: string | undefined): URLSearchParams | undefined {
  if (!returnUrl) return undefined;
  const url = new URL(returnUrl, "http://local.invalid");
  return url.pathname === AUTHORIZE_PATH ? url.searchParams : undefined;
}

/** After a fresh login the request must not ask for one again: drop prompt=login and max_age. */
export function afterLogin(returnUrl: string): string {
  const params = authorizeParametersOf(returnUrl);
  if (!params) return returnUrl;
  const prompts = (params.get("prompt") ?? "").split(" ").filter((p) => p && p !== "login");
  if (prompts.length > 0) params.set("prompt", prompts.join(" "));
  else params.delete("prompt");
  params.delete("max_age");
  return authorizeReturnUrl(params);
}
