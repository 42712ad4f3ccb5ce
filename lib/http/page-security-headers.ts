/**
 * Headers of every page a person sees: never framed (clickjacking on login and consent), no URLs leaked in the
 * Referer. next.config.mjs sets the same for pages Next.js renders; these are for pages OptiGate writes itself.
 */
const PAGE_SECURITY_HEADERS = {
  "Content-Security-Policy": "frame-ancestors 'none'",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
} as const;

export function htmlPage(html: string, status: number): Response {
  return new Response(html, {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", ...PAGE_SECURITY_HEADERS },
  });
}

/** HSTS (RFC 6797) when OptiGate is served over https: browsers then never try plain http for a year. */
export function strictTransportSecurity(publicUrl: string): string | undefined {
  return publicUrl.startsWith("https:") ? "max-age=31536000" : undefined;
}
