/**
 * Where mail goes: SMTP_URL names the mail server (`smtp://` or `smtps://`, credentials in the
 * URL, percent-encoded), MAIL_FROM the sender. Without SMTP_URL mail stays in the outbox (/admin/outbox).
 * MAIL_CATCHER_URL is the web page of a mail catcher behind SMTP_URL (the demo's, Mailpit's), linked from the outbox.
 */
import { ConfigError } from "@/lib/config/config-error";

export interface MailConfig {
  /** null: mail is kept in the outbox, not sent */
  smtpUrl: string | null;
  /** the From header: an address, optionally with a display name (`OptiGate <no-reply@example.com>`) */
  mailFrom: string;
  /** the page where a mail catcher shows the mail sent (MAIL_CATCHER_URL); null: none to link */
  catcherUrl: string | null;
}

type Env = Record<string, string | undefined>;

const ADDRESS = /^[^\s@<>()",;:\\[\]]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*$/;
const NAMED_ADDRESS = /^[^<>"\p{Cc}]{1,100} <([^<>]+)>$/u;

function readSmtpUrl(env: Env): string | null {
  const raw = env.SMTP_URL?.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError("SMTP_URL", "must be an smtp:// or smtps:// URL, such as smtp://user:password@mail:587");
  }
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:")
    throw new ConfigError("SMTP_URL", `must use smtp:// or smtps:// (got ${url.protocol}//)`);
  if (!url.hostname) throw new ConfigError("SMTP_URL", "must name the mail server's host");
  return raw;
}

/** The sender's address; the default is no-reply at PUBLIC_URL's host. */
function readMailFrom(env: Env, publicUrl: string): string {
  const raw = env.MAIL_FROM?.trim();
  if (!raw) {
    const host = new URL(publicUrl).hostname;
    return `OptiGate <no-reply@${host.includes(".") ? host : `${host}.localdomain`}>`;
  }
  const address = NAMED_ADDRESS.exec(raw)?.[1] ?? raw;
  if (!ADDRESS.test(address))
    throw new ConfigError("MAIL_FROM", `must be an email address, optionally as "Name <address>" (got "${raw}")`);
  return raw;
}

/** An http(s) URL without credentials: it becomes a link on an operator's page. */
function readCatcherUrl(env: Env): string | null {
  const raw = env.MAIL_CATCHER_URL?.trim();
  if (!raw) return null;
  const url = URL.parse(raw);
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.username || url.password)
    throw new ConfigError("MAIL_CATCHER_URL", `must be an http or https URL without credentials (got "${raw}")`);
  return url.href;
}

export function readMailConfig(env: Env, publicUrl: string): MailConfig {
  return { smtpUrl: readSmtpUrl(env), mailFrom: readMailFrom(env, publicUrl), catcherUrl: readCatcherUrl(env) };
}
