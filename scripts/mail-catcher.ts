/**
 * `npm run mail-catcher`: a local SMTP server for trying OptiGate's mail without a mail server. It accepts every
 * message on 127.0.0.1 (port MAIL_CATCHER_PORT, default 2525) and prints it: recipient, subject and text, with
 * its links. Start the demo with `SMTP_URL=smtp://127.0.0.1:2525` beside it. Nothing is stored.
 */
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer, type SMTPServerDataStream } from "smtp-server";

const port = Number(process.env.MAIL_CATCHER_PORT ?? 2525);

async function printMail(stream: SMTPServerDataStream): Promise<void> {
  const mail = await simpleParser(stream);
  const to = [mail.to ?? []].flat().map((address) => address.text);
  process.stdout.write(`\n── To: ${to.join(", ")}\n   Subject: ${mail.subject ?? ""}\n\n${mail.text ?? ""}\n`);
}

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onData(stream, _session, callback) {
    printMail(stream).then(() => callback(), callback);
  },
});
server.listen(port, "127.0.0.1", () => {
  const { port: listening } = server.server.address() as AddressInfo;
  process.stdout.write(`Catching mail on smtp://127.0.0.1:${listening} (start OptiGate with that SMTP_URL)\n`);
});
