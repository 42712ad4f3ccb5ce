/**
 * An outbox worker in a process of its own, as the server runs it, for the test that kills it mid-delivery. Reads
 * DATABASE_URL, SECRET_KEY and SMTP_URL as the server does; HOLD_MS sets how long its claims hold.
 */
import { loadConfig } from "@/lib/config";
import { getPrismaClient } from "@/lib/db/prisma";
import { prismaStores } from "@/lib/store/stores";
import { createOutboxWorker } from "@/lib/mail/outbox-worker";
import { smtpSender } from "@/lib/mail/smtp-sender";

const config = loadConfig();
const worker = createOutboxWorker({
  outbox: prismaStores(getPrismaClient(config.database)).outbox,
  secretKey: config.secretKey,
  sender: smtpSender(config.mail.smtpUrl!, config.mail.mailFrom),
  holdMs: Number(process.env.HOLD_MS),
  pollMs: 50,
});
worker.start();
console.log("worker started");
