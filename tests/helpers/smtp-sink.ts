/**
 * A real SMTP server for the tests (the smtp-server package) on a free local port. Each message's fate is decided
 * by `answer`: accepted (parsed with mailparser and kept), refused with an SMTP reply code, the connection dropped
 * mid-message, or held without an answer until the test lets go.
 */
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer, type SMTPServerDataStream } from "smtp-server";

export interface ReceivedMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  headers: Map<string, unknown>;
}

export type SmtpAnswer = "accept" | "drop" | "hold" | { code: number; message: string };

export interface SmtpSink {
  url: string;
  received: ReceivedMail[];
  /** how many messages reached the DATA stage, whatever was answered */
  offered: number;
  answer: (attempt: number) => SmtpAnswer;
  close(): Promise<void>;
}

async function readAll(stream: SMTPServerDataStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function addressText(value: unknown): string {
  const list = [value].flat() as ({ text?: string } | undefined)[];
  return list.map((address) => address?.text ?? "").join(", ");
}

export async function startSmtpSink(answer: SmtpSink["answer"] = () => "accept"): Promise<SmtpSink> {
  const sink: SmtpSink = { url: "", received: [], offered: 0, answer, close: async () => undefined };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const decision = sink.answer(++sink.offered);
      if (decision === "drop") {
        stream.resume();
        for (const connection of server.connections) if (connection.session === session) connection._socket.destroy();
        return;
      }
      readAll(stream).then(async (raw) => {
        if (decision === "hold") return;
        if (decision !== "accept") {
          callback(Object.assign(new Error(decision.message), { responseCode: decision.code }));
          return;
        }
        const mail = await simpleParser(raw);
        sink.received.push({
          to: addressText(mail.to),
          from: addressText(mail.from),
          subject: mail.subject ?? "",
          text: mail.text ?? "",
          html: typeof mail.html === "string" ? mail.html : "",
          headers: mail.headers,
        });
        callback();
      }, callback);
    },
  });
  // A client killed or cut off mid-message resets its connection: expected here, not a failure of the sink.
  server.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "ECONNRESET") throw error;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  sink.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  sink.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return sink;
}
