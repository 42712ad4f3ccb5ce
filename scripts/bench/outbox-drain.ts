/**
 * The outbox worker of the bench, in a process of its own on the server core: delivers every queued message to
 * SMTP_URL and prints {"sent", "seconds"}. Settings as the server reads them (DATABASE_URL, SECRET_KEY, SMTP_URL).
 */
import { loadConfig } from "@/lib/config";
import { closeDb, getPrismaClient } from "@/lib/db/prisma";
import { createOutboxWorker } from "@/lib/mail/outbox-worker";
import { smtpSender } from "@/lib/mail/smtp-sender";
import { prismaStores } from "@/lib/store/stores";

const config = loadConfig();
const db = getPrismaClient(config.database);
const worker = createOutboxWorker({
  outbox: prismaStores(db).outbox,
  secretKey: config.secretKey,
  sender: smtpSender(config.mail.smtpUrl!, config.mail.mailFrom),
});
const started = performance.now();
const sent = await worker.deliverDue();
const seconds = (performance.now() - started) / 1000;
await worker.stop();
await closeDb(db);
console.log(JSON.stringify({ sent, seconds }));
