/**
 * `npm run mail-catcher`: a local mail catcher for trying OptiGate's mail without a mail server
 * (scripts/mail-catcher-server.ts). It accepts every message on 127.0.0.1 (port MAIL_CATCHER_PORT, default 2525),
 * shows it on a web page (port MAIL_CATCHER_WEB_PORT, default 2526) and prints it here: recipient, subject and text,
 * with its links. Start OptiGate beside it with `SMTP_URL=smtp://127.0.0.1:2525` and, for a link to the page on
 * /admin/outbox, `MAIL_CATCHER_URL=http://127.0.0.1:2526`. `npm run demo` starts a catcher of its own.
 */
import { startMailCatcher, type CaughtMail } from "./mail-catcher-server";

const printMail = (mail: CaughtMail) =>
  process.stdout.write(`\n── To: ${mail.to}\n   Subject: ${mail.subject}\n\n${mail.text}\n`);

startMailCatcher({
  smtpPort: Number(process.env.MAIL_CATCHER_PORT ?? 2525),
  webPort: Number(process.env.MAIL_CATCHER_WEB_PORT ?? 2526),
  onMail: printMail,
}).then(
  ({ smtpUrl, webUrl }) =>
    process.stdout.write(
      `Catching mail on ${smtpUrl} (start OptiGate with that SMTP_URL); read it on ${webUrl} (its MAIL_CATCHER_URL)\n`,
    ),
  (error: Error) => {
    console.error(`the mail catcher cannot start: ${error.message}`);
    process.exit(1);
  },
);
