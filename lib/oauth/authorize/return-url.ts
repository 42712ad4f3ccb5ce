import { ENDPOINTS } from "@/lib/http/paths";
/**
 * The way back from OptiGate's sign-in pages into an authorization request: `/connect/authorize?<the request's
 * parameters>`.
 */

export function authorizeReturnUrl(parameters: Iterable<[string, string]>): string {
  return `${ENDPOINTS.authorize}?${new URLSearchParams([...parameters])}`;
}

/** The parameters of an authorization request a (local) return URL leads back to, or undefined for other paths. */
export function authorizeParametersOf(returnUrl: string | undefined): URLSearchParams | undefined {
  if (!returnUrl) return undefined;
  const url = new URL(returnUrl, "http://local.invalid");
  return url.pathname === ENDPOINTS.authorize ? url.searchParams : undefined;
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
