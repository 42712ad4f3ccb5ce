/**
 * Delivers the outbox: claims due messages in batches, sends them concurrently, and marks each sent, to be tried
 * again after a growing pause (30 s, 1 min, 2 min … at most an hour), or failed after a permanent refusal or
 * MAX_ATTEMPTS tries (its body erased unless its kind holds no one-time link: lib/mail/outbox.ts). A claim holds its
 * messages for HOLD_MS; a worker that dies holding them leaves them to be taken again when the claim runs out, so
 * nothing is lost and, unless the crash came between the server's acceptance and the mark, nothing is sent twice.
 * Several processes may run workers on one database. Mail the server accepted and mail given up on are counted for
 * the metrics. Kinds that are not mail (webhooks) are claimed alike and sent by their own transports, which keep their
 * own retry schedule (lib/mail/outbox-transport.ts); a worker without a mail server claims only those.
 *
 * Mail and the other kinds travel in separate lanes, each claiming its own batches: a receiver that never answers
 * holds up its lane's batch for one timeout, never a password reset or an invitation. A pass (deliverDue: the cron
 * route, tests) sends the mail due first, then the rest; a running worker runs the lanes side by side. A pass takes
 * only what was due when it began, so retries scheduled meanwhile wait for the next one and a pass always ends.
 */
import { randomUUID } from "node:crypto";
import type { MailContent } from "@/lib/mail/mail-content";
import { isResendable, openOutboxBody } from "@/lib/mail/outbox";
import { deliveryFailure, type MailSender } from "@/lib/mail/smtp-sender";
import { NO_MAIL_SENDER, sendThrough, type OutboxTransport } from "@/lib/mail/outbox-transport";
import type { ClaimedMessage, OutboxStore } from "@/lib/store/outbox-store";
import { metrics } from "@/lib/observability/metrics";
import { OUTBOX_PASS_BUDGET_MS, WEBHOOK_CONCURRENCY } from "@/lib/config/policy";

const MAX_ATTEMPTS = 10;
const FIRST_RETRY_MS = 30_000;
const LONGEST_RETRY_MS = 3_600_000;

/** Writes a deferred mail of one kind when it is due: its content, or null when there is nothing to send. */
export type MailComposer = (mail: {
  recipient: string;
  language: string;
  request: Record<string, string>;
}) => Promise<MailContent | null>;

export interface OutboxWorkerOptions {
  outbox: OutboxStore;
  secretKey: string;
  /** the mail server; without one the worker claims only the kinds `transports` send */
  sender?: MailSender;
  /** the composers of deferred mail, by kind */
  composers?: Record<string, MailComposer>;
  /** kinds that are not mail, each sent by its own transport (webhooks) */
  transports?: Record<string, OutboxTransport>;
  /** how long a claim holds its messages: longer than the SMTP time-outs */
  holdMs?: number;
  /** how often an idle worker looks for due messages */
  pollMs?: number;
  /** mail claimed and sent at once */
  batchSize?: number;
  /** messages of the transports' kinds claimed and sent at once */
  transportBatchSize?: number;
  /** how long a pass (deliverDue) claims new batches */
  passBudgetMs?: number;
  clock?: () => Date;
  /** told of each message that was not delivered (never its body) */
  onUndelivered?: (messageId: string, reason: string, failed: boolean) => void;
  /** told when the outbox could not be read or written (the database is away); the worker tries again later */
  onError?: (error: Error) => void;
}

export interface OutboxWorker {
  /** Delivers everything due now; how many were sent. */
  deliverDue(): Promise<number>;
  /** Runs until stopped: delivers what is due, then waits for the next poll or wake. */
  start(): void;
  /** Looks for due messages now (after a change queued mail in this process). */
  wake(): void;
  /** Finishes the delivery under way and closes the SMTP connections. */
  stop(): Promise<void>;
}

export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);
}

/** What one lane claims: mail (every kind but the transports'), or the transports' kinds. */
interface Lane {
  claims: { kinds?: readonly string[]; exceptKinds?: readonly string[] };
  batchSize: number;
  /** woken while it was delivering: it looks again at once */
  woken: boolean;
  wakeUp?: () => void;
}

function lanesOf(options: OutboxWorkerOptions): Lane[] {
  const transportKinds = Object.keys(options.transports ?? {});
  const lane = (claims: Lane["claims"], batchSize: number): Lane => ({ claims, batchSize, woken: false });
  return [
    ...(options.sender ? [lane({ exceptKinds: transportKinds }, options.batchSize ?? 50)] : []),
    ...(transportKinds.length
      ? [lane({ kinds: transportKinds }, options.transportBatchSize ?? WEBHOOK_CONCURRENCY)]
      : []),
  ];
}

/** Runs a lane while `running()`: a pass, then a pause of `pollMs` unless it was woken during the pass or the pause. */
async function runLane(lane: Lane, pass: (lane: Lane) => Promise<unknown>, running: () => boolean, pollMs: number) {
  while (running()) {
    lane.woken = false;
    await pass(lane);
    if (!running()) break;
    if (lane.woken) continue;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, pollMs);
      timer.unref();
      lane.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    lane.wakeUp = undefined;
  }
}

export function createOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const { outbox, secretKey } = options;
  const sender = options.sender ?? NO_MAIL_SENDER;
  const lanes = lanesOf(options);
  const holdMs = options.holdMs ?? 120_000;
  const pollMs = options.pollMs ?? 2_000;
  const clock = options.clock ?? (() => new Date());
  let running = false;
  let stopping = false;
  let loops: Promise<void>[] = [];

  /** The mail to send for a claimed body; null for a deferred mail with nothing to send. */
  async function contentOf(message: ClaimedMessage, sealedBody: string): Promise<Omit<MailContent, "subject"> | null> {
    const body = openOutboxBody(secretKey, sealedBody);
    if (!("deferred" in body)) return body;
    const compose = options.composers?.[message.kind];
    if (!compose) throw new Error(`no composer for deferred mail of kind "${message.kind}"`);
    const content = await compose({ recipient: message.recipient, language: message.language, request: body.deferred });
    if (content) message.subject = content.subject;
    return content;
  }

  async function deliver(message: ClaimedMessage): Promise<boolean> {
    const transport = options.transports?.[message.kind];
    if (transport)
      return sendThrough(transport, message, { ...options, clock, retryMs: retryDelayMs(message.attempts) });
    try {
      // A message without a body was sent by a claim that then lost the race to mark it; there is nothing to send.
      if (message.sealedBody) {
        const content = await contentOf(message, message.sealedBody);
        if (!content) {
          await outbox.drop(message);
          return false;
        }
        await sender.send({ to: message.recipient, subject: message.subject, text: content.text, html: content.html });
        metrics.mailSent.inc({ kind: message.kind });
      }
      await outbox.markSent(message, clock());
      return true;
    } catch (error) {
      const failure = deliveryFailure(error);
      const failed = failure.permanent || message.attempts >= MAX_ATTEMPTS;
      const nextAttemptAt = new Date(clock().getTime() + retryDelayMs(message.attempts));
      const keepBody = failed && isResendable(message.kind);
      await outbox.markUndelivered(message, { failed, lastError: failure.reason, nextAttemptAt, keepBody });
      if (failed) metrics.mailFailed.inc({ kind: message.kind });
      options.onUndelivered?.(message.id, failure.reason, failed);
      return false;
    }
  }

  /**
   * Delivers, one batch at a time, the lane's messages that were due at `dueBy`, claiming no new batch after
   * `deadline` (performance.now() time); how many were sent.
   */
  async function drain(lane: Lane, dueBy: Date, deadline = Infinity): Promise<number> {
    let sent = 0;
    while (!stopping && performance.now() < deadline) {
      const claimed = await outbox.claimDue({
        token: randomUUID(),
        limit: lane.batchSize,
        now: dueBy,
        holdUntil: new Date(clock().getTime() + holdMs),
        ...lane.claims,
      });
      if (claimed.length === 0) break;
      sent += (await Promise.all(claimed.map(deliver))).filter(Boolean).length;
    }
    return sent;
  }

  async function deliverDue(): Promise<number> {
    const dueBy = clock();
    // A scheduler's call must end: what is left after the budget waits for the next call.
    const deadline = performance.now() + (options.passBudgetMs ?? OUTBOX_PASS_BUDGET_MS);
    let sent = 0;
    // Mail first: the other lanes may wait on receivers that do not answer.
    for (const lane of lanes) sent += await drain(lane, dueBy, deadline);
    return sent;
  }

  const wakeAll = () =>
    lanes.forEach((lane) => {
      lane.woken = true;
      lane.wakeUp?.();
    });

  return {
    deliverDue,
    start() {
      if (running) return;
      running = true;
      stopping = false;
      const pass = (lane: Lane) => drain(lane, clock()).catch((error: Error) => options.onError?.(error));
      loops = lanes.map((lane) => runLane(lane, pass, () => running, pollMs));
    },
    wake: wakeAll,
    async stop() {
      running = false;
      stopping = true;
      wakeAll();
      await Promise.all(loops);
      sender.close();
    },
  };
}
