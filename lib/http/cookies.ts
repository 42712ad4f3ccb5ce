/** Reading the Cookie header and writing Set-Cookie values, for handlers that work on plain Request/Response. */

/** A cookie value with its percent-encoding undone; a broken encoding (`%ZZ`) is kept as sent, like a missing one it matches nothing. */
function decodedCookieValue(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export function readCookie(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const separator = part.indexOf("=");
    if (separator > 0 && part.slice(0, separator).trim() === name)
      return decodedCookieValue(part.slice(separator + 1).trim());
  }
  return undefined;
}

/** Cookies are Secure when OptiGate is served over https. */
export function isSecureOrigin(publicUrl: string): boolean {
  return publicUrl.startsWith("https:");
}

/**
 * The name of a cookie that stands for a person or a link: over https it takes the `__Host-` prefix (Secure,
 * Path=/, no Domain), so that no sibling subdomain can set or overwrite it (a planted session or reset link).
 */
export function hostCookieName(name: string, publicUrl: string): string {
  return isSecureOrigin(publicUrl) ? `__Host-${name}` : name;
}

export interface CookieOptions {
  maxAgeSeconds?: number;
  secure: boolean;
  path?: string;
  httpOnly?: boolean;
}

export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${options.path ?? "/"}`, "SameSite=Lax"];
  if (options.httpOnly ?? true) parts.push("HttpOnly");
  if (options.secure) parts.push("Secure");
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${options.maxAgeSeconds}`);
  return parts.join("; ");
}

export function expireCookie(name: string, options: Omit<CookieOptions, "maxAgeSeconds">): string {
  return serializeCookie(name, "", { ...options, maxAgeSeconds: 0 });
}
