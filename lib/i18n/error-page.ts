/**
 * OptiGate's own error page for authorization requests that must not be redirected (unknown client, unregistered
 * redirect URI). Rendered by the route handler itself, so that the response is a 400 and never a redirect.
 */
import { escapeHtml } from "@/lib/http/html";
import { htmlPage } from "@/lib/http/page-security-headers";
import { loadMessages, type Locale } from "@/lib/i18n/locales";

export async function errorPage(
  locale: Locale,
  code: "invalid_client" | "invalid_request" | "server_error",
  description: string,
  status = 400,
): Promise<Response> {
  const t = (await loadMessages(locale)).ErrorPage;
  const html = `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(t.title)} – OptiGate</title>
<style>
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;background:#f8fafc;color:#0f172a}
header{background:#fff;border-bottom:1px solid #e2e8f0;padding:12px 16px;display:flex;align-items:center;gap:12px}
.logo{display:grid;place-items:center;width:36px;height:36px;border-radius:50%;background:#165262;color:#fff;font-weight:700;font-size:14px}
main{max-width:36rem;margin:40px auto;padding:0 16px}
.card{background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:24px}
h1{font-size:1.4rem;color:#11404c;margin:0 0 12px}
p{line-height:1.55;color:#334155}
code{display:block;background:#f1f5f9;padding:8px;border-radius:4px;font-size:.85rem;overflow-wrap:anywhere;color:#0f172a}
a{color:#165262}
a:focus-visible{outline:3px solid #1d6577;outline-offset:2px}
</style></head>
<body><header><span class="logo" aria-hidden="true">OG</span><strong>OptiGate</strong></header>
<main><div class="card" role="alert"><h1>${escapeHtml(t.title)}</h1>
<p>${escapeHtml(t[code])}</p><p>${escapeHtml(t.hint)}</p>
<p>${escapeHtml(t.details)}:</p><code>${escapeHtml(code)}: ${escapeHtml(description)}</code>
<p><a href="/">${escapeHtml(t.home)}</a></p></div></main></body></html>`;
  return htmlPage(html, status);
}
