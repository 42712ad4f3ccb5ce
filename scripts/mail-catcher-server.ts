/**
 * The mail catcher of `npm run mail-catcher` and `npm run demo`: an SMTP server on 127.0.0.1 that accepts every
 * message, and a web page on 127.0.0.1 that shows what it caught, newest first, with the links clickable, so that a
 * password reset, an invitation or an email change can be followed from its mail. The messages are kept in memory
 * only (the last KEPT of them).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Server } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer, type SMTPServerDataStream } from "smtp-server";

export interface CaughtMail {
  to: string;
  subject: string;
  text: string;
  receivedAt: Date;
}

export interface MailCatcher {
  smtpUrl: string;
  /** the page that shows the mail caught */
  webUrl: string;
  close(): Promise<void>;
}

const HOST = "127.0.0.1";
const KEPT = 200;
const LINK = /(https?:\/\/[^\s<>"]+)/;

const escaped = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** The text with its web addresses as links. */
const linkedText = (text: string) =>
  text
    .split(LINK)
    .map((part, index) => (index % 2 === 1 ? `<a href="${escaped(part)}">${escaped(part)}</a>` : escaped(part)))
    .join("");

function page(caught: readonly CaughtMail[], smtpUrl: string): string {
  const articles = caught.map(
    (mail) => `<article data-recipient="${escaped(mail.to)}">
<h2>${escaped(mail.subject || "(no subject)")}</h2>
<p class="meta">To ${escaped(mail.to)} · ${mail.receivedAt.toISOString().slice(11, 19)} UTC</p>
<pre>${mail.text ? linkedText(mail.text) : "(no text part)"}</pre>
</article>`,
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>Mail catcher (${caught.length})</title>
<style>body{font-family:system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem;color:#0f172a}
article{border:1px solid #cbd5e1;border-radius:.5rem;padding:0 1rem;margin:1rem 0}h2{font-size:1.1rem}
.meta{color:#475569;font-size:.9rem}pre{white-space:pre-wrap;font-family:inherit}a{color:#1d4ed8}</style></head>
<body><main><h1>Mail caught</h1>
<p>The mail sent to ${escaped(smtpUrl)}, newest first (the last ${KEPT}, kept in memory only). Reload the page for new
mail.</p>
${articles.join("\n") || "<p>No mail yet.</p>"}
</main></body></html>`;
}

function answerPage(caught: readonly CaughtMail[], smtpUrl: string) {
  return (request: IncomingMessage, response: ServerResponse) => {
    const found = request.url === "/" || request.url?.startsWith("/?");
    const ok = found && (request.method === "GET" || request.method === "HEAD");
    response.writeHead(ok ? 200 : found ? 405 : 404, {
      "content-type": ok ? "text/html; charset=utf-8" : "text/plain; charset=utf-8",
      "cache-control": "no-store",
      // The page shows mail: no script, nothing from elsewhere, never in a frame.
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    });
    response.end(ok ? page(caught, smtpUrl) : found ? "Method not allowed.\n" : "Not found.\n");
  };
}

/** Listens on 127.0.0.1; a port chosen by the system (0) is chosen again while it is one of `avoid`. */
async function listen(server: Server, port: number, avoid: readonly number[]): Promise<number> {
  for (;;) {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, HOST, () => {
        server.off("error", reject);
        resolve();
      });
    });
    const bound = (server.address() as AddressInfo).port;
    if (port !== 0 || !avoid.includes(bound)) return bound;
    await new Promise((resolve) => server.close(resolve));
  }
}

async function caughtMail(stream: SMTPServerDataStream): Promise<CaughtMail> {
  const mail = await simpleParser(stream);
  const to = [mail.to ?? []].flat().map((address) => address.text);
  return { to: to.join(", "), subject: mail.subject ?? "", text: mail.text ?? "", receivedAt: new Date() };
}

/**
 * Starts the catcher on the ports given (0: any free one other than those in `avoid`, such as OptiGate's PORT);
 * `onMail` hears of each message caught.
 */
export async function startMailCatcher(options: {
  smtpPort: number;
  webPort: number;
  avoid?: readonly number[];
  onMail?: (mail: CaughtMail) => void;
}): Promise<MailCatcher> {
  const caught: CaughtMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    // A sender that keeps its connection (a pooled transport) does not hold the stop up.
    closeTimeout: 1000,
    onData(stream, _session, callback) {
      caughtMail(stream).then((mail) => {
        caught.unshift(mail);
        caught.splice(KEPT);
        options.onMail?.(mail);
        callback();
      }, callback);
    },
  });
  const avoid = options.avoid ?? [];
  const smtpUrl = `smtp://${HOST}:${await listen(smtp.server, options.smtpPort, avoid)}`;
  const closeSmtp = () => new Promise<void>((resolve) => smtp.close(() => resolve()));
  const web = createServer(answerPage(caught, smtpUrl));
  const webPort = await listen(web, options.webPort, [...avoid, Number(new URL(smtpUrl).port)]).catch(
    async (error: Error) => {
      await closeSmtp();
      throw error;
    },
  );
  return {
    smtpUrl,
    webUrl: `http://${HOST}:${webPort}/`,
    close: async () => {
      web.closeAllConnections();
      await Promise.all([new Promise((resolve) => web.close(resolve)), closeSmtp()]);
    },
  };
}
