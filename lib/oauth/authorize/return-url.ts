/**
 * The way back from OptiGate's sign-in pages into an authorization request: `/connect/authorize?<the request's
 * parameters>`.
 */

const AUTHORIZE_PATH = "/connect/authorize";

export function authorizeReturnUrl(parameters: Iterable<[string, string]>): string {
  return `${AUTHORIZE_PATH}?${new URLSearchParams([...parameters])}`;
}

/** The parameters of an authorization request a (local) return URL leads back to, or undefined for other paths. */
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
