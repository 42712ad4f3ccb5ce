/**
 * Sending one mail to the SMTP server of SMTP_URL through nodemailer, over a small pool of connections. A refusal
 * with a 5xx reply is permanent (the mailbox does not exist, the message is refused); anything else (4xx, a time-out,
 * a connection closed mid-message) is worth trying again.
 */
import { createTransport } from "nodemailer";
import { logger } from "@/lib/observability/logger";

interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface MailSender {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** Why a mail was not sent, and whether trying again could help. */
export interface DeliveryFailure {
  permanent: boolean;
  reason: string;
}

/** The SMTP reply code of a nodemailer error (550 for "mailbox unavailable"), when the server gave one. */
function replyCode(error: unknown): number | undefined {
  const code = (error as { responseCode?: unknown }).responseCode;
  return typeof code === "number" ? code : undefined;
}

export function deliveryFailure(error: unknown): DeliveryFailure {
  const code = replyCode(error);
  const message = error instanceof Error ? error.message : String(error);
  return { permanent: code !== undefined && code >= 500 && code < 600, reason: message.slice(0, 500) };
}

/** Connections wait this long at most, so that a stuck server cannot hold a message past its claim. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export function smtpSender(smtpUrl: string, from: string): MailSender {
  // The outbox retries with its own backoff (lib/mail/outbox-worker.ts): the pool does not requeue on its own.
  const transport = createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: 5,
    maxMessages: 1000,
    maxRequeues: 0,
    ...TIMEOUTS,
  });
  // A pooled connection that fails between messages: the next message opens another, and a send's own failure
  // reaches the worker through sendMail. Unheard, the event would end the process.
  transport.on("error", (error) => logger.warn({ err: error }, "mail server connection failed"));
  return {
    async send(message) {
      await transport.sendMail({ from, ...message, headers: { "Auto-Submitted": "auto-generated" } });
    },
    close: () => transport.close(),
  };
}
