/** The CSRF token a page puts into its forms, for the CSRF cookie the proxy handed it (lib/pages/page-proxy.ts). */
import "server-only";
import { headers } from "next/headers";
import { getConfig } from "@/lib/config";
import { CSRF_COOKIE_HEADER } from "@/lib/pages/page-proxy";
import { csrfToken } from "@/lib/session/csrf";
import { pageSessionCookie } from "@/lib/pages/page-cookies";

export { CSRF_FIELD } from "@/lib/session/csrf";

/** Bound to the login session the browser holds; empty when the proxy did not run, so that the submission is refused. */
export async function pageCsrfToken(): Promise<string> {
  const cookieValue = (await headers()).get(CSRF_COOKIE_HEADER);
  return cookieValue ? csrfToken(cookieValue, getConfig().secretKey, await pageSessionCookie()) : "";
}
