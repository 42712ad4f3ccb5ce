/**
 * OptiGate's own error page for authorization requests that must not be redirected (unknown client, unregistered
 * redirect URI). Rendered by the route handler itself, so that the response is a 400 and never a redirect.
 */
import { escapeHtml } from "@/lib/http/html";
import { standalonePage } from "@/lib/http/standalone-page";
import { loadMessages, type Locale } from "@/lib/i18n/locales";

export async function errorPage(
  locale: Locale,
  code: "invalid_client" | "invalid_request" | "server_error",
  description: string,
  status = 400,
): Promise<Response> {
  const messages = await loadMessages(locale);
  const t = messages.ErrorPage;
  const body = `<p>${escapeHtml(t[code])}</p><p>${escapeHtml(t.hint)}</p>
<p>${escapeHtml(t.details)}:</p><code>${escapeHtml(code)}: ${escapeHtml(description)}</code>
<p style="margin-top:16px"><a href="/">${escapeHtml(t.home)}</a></p>`;
  const { serviceName, footer } = messages.Layout;
  return standalonePage({ lang: locale, title: t.title, body, serviceName, footer, alert: true }, status);
}
