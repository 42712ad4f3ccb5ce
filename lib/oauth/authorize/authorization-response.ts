/**
 * Sends the result of an authorization request to the client's verified redirect URI: in the query, the fragment,
 * or as an auto-submitted form (OAuth 2.0 Form Post Response Mode). Every response carries `state` (when the
 * request had one) and `iss` (RFC 9207).
 */
import type { AuthorizationError, RedirectTarget } from "@/lib/oauth/authorize/authorization-request";
import { escapeHtml } from "@/lib/http/html";
import { htmlPage } from "@/lib/http/page-security-headers";

const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

function formPostPage(redirectUri: string, values: URLSearchParams): Response {
  const inputs = [...values]
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("");
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>Continue</title></head>
<body onload="document.forms[0].submit()"><form method="post" action="${escapeHtml(redirectUri)}">${inputs}
<noscript><button type="submit">Continue</button></noscript></form></body></html>`;
  return htmlPage(html, 200);
}

export function authorizationResponse(
  target: RedirectTarget,
  values: Record<string, string>,
  issuer: string,
  status: 302 | 303 = 302,
): Response {
  const params = new URLSearchParams(values);
  if (target.state !== undefined) params.set("state", target.state);
  params.set("iss", issuer);
  if (target.responseMode === "form_post") return formPostPage(target.redirectUri, params);
  let location: string;
  if (target.responseMode === "fragment") {
    location = `${target.redirectUri}#${params}`;
  } else {
    const url = new URL(target.redirectUri);
    for (const [name, value] of params) url.searchParams.append(name, value);
    location = url.toString();
  }
  return new Response(null, { status, headers: { ...NO_STORE, Location: location } });
}

export function authorizationErrorResponse(
  error: AuthorizationError,
  issuer: string,
  status: 302 | 303 = 302,
): Response {
  return authorizationResponse(
    error.target,
    { error: error.error.code, error_description: error.error.description },
    issuer,
    status,
  );
}
