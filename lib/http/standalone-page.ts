/**
 * A page a route handler writes itself, in the look of the sign-in pages (app/layout.tsx with a SignInCard): the
 * header with the service's name, one card, the footer. For answers that need their own status code (an error page
 * that must not redirect, a link that is refused with a 4xx), which a Next.js page cannot give. Styles are inline:
 * the pages' style sheet is Next's build output, which such a handler cannot name.
 */
import { escapeHtml } from "@/lib/http/html";
import { htmlPage } from "@/lib/http/page-security-headers";

const STYLE = `body{margin:0;min-height:100vh;display:flex;flex-direction:column;background:#f8fafc;color:#0f172a;
font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;
-webkit-font-smoothing:antialiased}
header,footer{background:#fff;border:0 solid #e2e8f0}header{border-bottom-width:1px}footer{border-top-width:1px}
.bar{max-width:64rem;margin:0 auto;padding:12px 16px;display:flex;align-items:center;gap:12px}
.brand{display:flex;align-items:center;gap:12px;text-decoration:none}
.logo{display:grid;place-items:center;width:36px;height:36px;border-radius:50%;background:#165262;color:#fff;
font-weight:700;font-size:14px}.name{font-size:1.125rem;font-weight:600;color:#11404c}
main{flex:1;width:100%;box-sizing:border-box;max-width:64rem;margin:0 auto;padding:32px 16px}
.card{max-width:28rem;margin:0 auto;background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:32px;
box-shadow:0 1px 2px rgba(0,0,0,.05)}
h1{font-size:1.25rem;font-weight:600;color:#11404c;margin:0}.sub{margin:4px 0 0;font-size:.875rem;color:#475569}
.body{margin-top:24px}.body>:last-child{margin-bottom:0}
p{line-height:1.55;color:#334155;font-size:.875rem;margin:0 0 16px}
.alert,.status{border:1px solid;border-radius:6px;padding:8px 12px}.alert{border-color:#fecaca;background:#fef2f2;
color:#991b1b}.status{border-color:#d5e9ee;background:#eef6f8;color:#11404c}
.facts{margin:0 0 16px;padding:12px 16px;list-style:none;background:#f8fafc;border:1px solid #e2e8f0;
border-radius:6px;font-size:.875rem;line-height:1.7}
code{display:block;background:#f1f5f9;padding:8px;border-radius:4px;font-size:.85rem;overflow-wrap:anywhere}
.button{display:flex;width:100%;box-sizing:border-box;justify-content:center;border-radius:6px;padding:10px 16px;
font-family:inherit;font-weight:600;font-size:.875rem;line-height:1.25rem;text-decoration:none;cursor:pointer;
border:1px solid #165262;background:#165262;
color:#fff}.button:hover{background:#11404c}.secondary{background:#fff;color:#1e293b;border-color:#cbd5e1}
.secondary:hover{background:#f8fafc}a{color:#165262}footer p{margin:0;padding:16px}
:focus-visible{outline:3px solid #1d6577;outline-offset:2px}`;

export interface StandalonePage {
  lang: string;
  /** the card's heading, also the document's title */
  title: string;
  /** a line under the heading, as text */
  subtitle?: string;
  /** the card's content: HTML whose every value the caller escaped */
  body: string;
  serviceName: string;
  footer: string;
  /** the card is an alert (an error page) */
  alert?: boolean;
}

export function standalonePage(page: StandalonePage, status: number): Response {
  const title = escapeHtml(page.title);
  const subtitle = page.subtitle ? `<p class="sub">${escapeHtml(page.subtitle)}</p>` : "";
  const html = `<!doctype html>
<html lang="${escapeHtml(page.lang)}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} – ${escapeHtml(page.serviceName)}</title><style>${STYLE}</style></head>
<body><header><div class="bar"><a href="/" class="brand">
<span class="logo" aria-hidden="true">OG</span><span class="name">${escapeHtml(page.serviceName)}</span></a></div>
</header>
<main><div class="card"${page.alert ? ' role="alert"' : ""}><h1>${title}</h1>${subtitle}
<div class="body">${page.body}</div></div></main>
<footer><div class="bar" style="padding:0"><p class="sub">${escapeHtml(page.footer)}</p></div></footer></body></html>`;
  return htmlPage(html, status);
}
