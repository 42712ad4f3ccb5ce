/**
 * The one layout of OptiGate's mail: a few paragraphs and one link, as plain text and as simple HTML (inline styles
 * only, as mail clients strip style sheets). Every value is escaped; the link is the only URL in the message.
 */
import { escapeHtml } from "@/lib/http/html";

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

export interface MailLayout {
  lang: string;
  subject: string;
  /** paragraphs before the link */
  before: string[];
  action: { label: string; url: string };
  /** paragraphs after the link */
  after: string[];
  /** "if the button does not work …" */
  linkFallback: string;
  signature: string;
}

const paragraph = (text: string) => `<p style="margin:0 0 16px">${escapeHtml(text)}</p>`;

function htmlBody(layout: MailLayout): string {
  const url = escapeHtml(layout.action.url);
  return [
    `<!doctype html><html lang="${escapeHtml(layout.lang)}"><head><meta charset="utf-8">`,
    `<title>${escapeHtml(layout.subject)}</title></head>`,
    `<body style="font-family:system-ui,sans-serif;font-size:16px;line-height:1.5;color:#1f2937;max-width:560px">`,
    ...layout.before.map(paragraph),
    `<p style="margin:24px 0"><a href="${url}" style="background:#1d4ed8;color:#ffffff;padding:12px 20px;`,
    `border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(layout.action.label)}</a></p>`,
    ...layout.after.map(paragraph),
    `<p style="margin:0 0 16px;font-size:14px;color:#4b5563">${escapeHtml(layout.linkFallback)}<br>`,
    `<a href="${url}" style="color:#1d4ed8;word-break:break-all">${url}</a></p>`,
    `<p style="margin:24px 0 0;font-size:14px;color:#4b5563">${escapeHtml(layout.signature)}</p>`,
    `</body></html>`,
  ].join("\n");
}

function textBody(layout: MailLayout): string {
  return [
    ...layout.before,
    `${layout.action.label}:\n${layout.action.url}`,
    ...layout.after,
    `-- \n${layout.signature}`,
  ].join("\n\n");
}

export function renderMail(layout: MailLayout): MailContent {
  return { subject: layout.subject, text: `${textBody(layout)}\n`, html: htmlBody(layout) };
}
