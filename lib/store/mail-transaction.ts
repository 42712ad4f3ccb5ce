/**
 * The transaction of a change that queues mail: the change writes its mail into the outbox through `queueMail`, in
 * the transaction, and the mail is counted as queued (optigate_mail_queued_total) once the transaction has
 * committed, since a change that rolls back queues nothing.
 */
import type { Db, DbTransaction } from "@/lib/db/prisma";
import { countQueuedMail } from "@/lib/observability/metrics";
import type { NewOutboxMessage } from "@/lib/store/models/outbox";

export type QueueMail = (mail: readonly NewOutboxMessage[], now: Date) => Promise<void>;

export async function transactionWithMail<R>(
  db: Db,
  work: (tx: DbTransaction, queueMail: QueueMail) => Promise<R>,
  options?: { timeout?: number },
): Promise<R> {
  const kinds: string[] = [];
  const result = await db.$transaction(
    (tx) =>
      work(tx, async (mail, now) => {
        if (mail.length === 0) return;
        await tx.outboxMessage.createMany({ data: mail.map((m) => ({ ...m, nextAttemptAt: now, createdAt: now })) });
        for (const { kind } of mail) kinds.push(kind);
      }),
    options,
  );
  countQueuedMail(kinds);
  return result;
}
