/**
 * The outbox store's contract: claims that hold, one claim per message, claims by kind, what each outcome keeps, and
 * the age of the oldest waiting message.
 */
import { describe, expect, it } from "vitest";
import type { NewOutboxMessage } from "@/lib/store/models/outbox";
import { freshValue, type StoreBackend } from "./store-backend";

/** Long before any mail the backend's data already holds, so that only the contract's messages are due. */
const EARLY = new Date("2020-01-01T00:00:00.000Z");
const at = (seconds: number) => new Date(EARLY.getTime() + seconds * 1000);

export function outboxContract(backend: StoreBackend): void {
  const outbox = () => backend.stores().outbox;
  const mail = (): NewOutboxMessage => ({
    kind: "contract",
    recipient: `${freshValue("to")}@contract.example`,
    language: "en",
    subject: "Hello",
    sealedBody: "sealed",
  });
  const claim = (seconds: number, limit = 10) =>
    outbox().claimDue({ token: freshValue("claim"), limit, now: at(seconds), holdUntil: at(seconds + 60) });

  describe("outbox", () => {
    it("gives each due message to one claim, which holds it, and counts the attempt", async () => {
      const before = await outbox().count();
      const first = mail();
      await outbox().queue(first, at(0));
      await outbox().queue(mail(), at(0));
      expect(await outbox().count()).toEqual({ ...before, queued: before.queued + 2 });
      // Racing claims may leave a message to a later claim (a database claim that lost takes none), never share one.
      const racing = (await Promise.all([claim(1, 1), claim(1, 1)])).flat();
      const rest = await claim(2);
      const claimed = [...racing, ...rest];
      expect(racing.length).toBeGreaterThanOrEqual(1);
      expect(claimed.map((message) => message.id).sort()).toEqual(
        [...new Set(claimed.map((message) => message.id))].sort(),
      );
      expect(claimed).toHaveLength(2);
      expect(claimed.every((message) => message.attempts === 1)).toBe(true);
      expect(await claim(30)).toEqual([]);
      // The claim ran out: the message is taken again, a second attempt.
      const again = await claim(120);
      expect(again).toHaveLength(2);
      expect(again.every((message) => message.attempts === 2)).toBe(true);
      for (const message of again) await outbox().drop(message);
      expect(await outbox().count()).toEqual(before);
    });

    it("tells when the oldest message still waiting was written, whether it is due or rescheduled", async () => {
      // Earlier than any other message the backend holds, so that these are the oldest.
      const [sent, rescheduled] = [mail(), mail()];
      await outbox().queue(sent, at(-3000));
      await outbox().queue(rescheduled, at(-2000));
      expect(await outbox().oldestWaitingSince()).toEqual(at(-3000));
      const claimed = await claim(-1000);
      const of = (message: NewOutboxMessage) => claimed.find((row) => row.recipient === message.recipient)!;
      await outbox().markSent(of(sent), at(-999));
      await outbox().markUndelivered(of(rescheduled), { failed: false, lastError: "busy", nextAttemptAt: at(-500) });
      expect(await outbox().oldestWaitingSince()).toEqual(at(-2000));
      const retried = await claim(-500);
      expect(retried.map((message) => message.recipient)).toEqual([rescheduled.recipient]);
      await outbox().markUndelivered(retried[0], { failed: true, lastError: "no such user", nextAttemptAt: at(0) });
      const oldest = await outbox().oldestWaitingSince();
      expect(oldest === null || oldest > at(-2000)).toBe(true);
    });

    it("erases a sent message's body, keeps a rescheduled one's, and erases a failed one's", async () => {
      const [sent, later, failed] = [mail(), mail(), mail()];
      for (const message of [sent, later, failed]) await outbox().queue(message, at(1000));
      const claimed = await claim(1001);
      const of = (message: NewOutboxMessage) => claimed.find((row) => row.recipient === message.recipient)!;
      await outbox().markSent(of(sent), at(1002));
      await outbox().markUndelivered(of(later), { failed: false, lastError: "busy", nextAttemptAt: at(1100) });
      await outbox().markUndelivered(of(failed), { failed: true, lastError: "no such user", nextAttemptAt: at(1100) });
      // A stale claim changes nothing.
      await outbox().markSent({ ...of(later), claimToken: "stale" }, at(1003));
      const listed = await outbox().list(1000);
      const row = (message: NewOutboxMessage) => listed.find((entry) => entry.recipient === message.recipient)!;
      expect(row(sent)).toMatchObject({ status: "sent", sentAt: at(1002), sealedBody: null, lastError: null });
      expect(row(later)).toMatchObject({
        status: "queued",
        sealedBody: "sealed",
        lastError: "busy",
        nextAttemptAt: at(1100),
      });
      expect(row(failed)).toMatchObject({ status: "failed", sealedBody: null, lastError: "no such user" });
      expect(await claim(1050)).toEqual([]);
      const retried = await claim(1100);
      expect(retried.map((message) => message.recipient)).toEqual([later.recipient]);
      await outbox().drop(retried[0]);
    });

    it("keeps a failed message's body when told, and queues it again once, with its audit event", async () => {
      const [kept, erased] = [mail(), mail()];
      for (const message of [kept, erased]) await outbox().queue(message, at(2000));
      const claimed = await claim(2001);
      const of = (message: NewOutboxMessage) => claimed.find((row) => row.recipient === message.recipient)!;
      const failure = { failed: true, lastError: "refused", nextAttemptAt: at(2100) };
      await outbox().markUndelivered(of(kept), { ...failure, keepBody: true });
      await outbox().markUndelivered(of(erased), failure);
      const id = of(kept).id;
      expect(await outbox().find(id)).toMatchObject({ status: "failed", sealedBody: "sealed", attempts: 1 });
      expect((await outbox().find(of(erased).id))!.sealedBody).toBeNull();
      expect(await outbox().find("no-such-message")).toBeNull();

      expect(await outbox().requeue(id, "other body", at(2200))).toBe(false);
      const audit = { type: "mail.retried", details: { messageId: id } } as const;
      const requeued = await Promise.all([
        outbox().requeue(id, "sealed", at(2200), audit),
        outbox().requeue(id, "sealed", at(2200), audit),
      ]);
      expect(requeued.filter(Boolean)).toHaveLength(1);
      expect(await outbox().find(id)).toMatchObject({ status: "queued", attempts: 0, nextAttemptAt: at(2200) });
      const events = await backend.stores().audit.list({ type: "mail.retried" }, 100);
      expect(events.filter((event) => JSON.parse(event.details).messageId === id)).toHaveLength(1);
      for (const message of await claim(2200)) await outbox().drop(message);
    });

    it("claims only the kinds asked for, or all but those excepted (the worker's mail and webhook lanes)", async () => {
      const [letter, other] = [mail(), { ...mail(), kind: "contract-other" }];
      for (const message of [letter, other]) await outbox().queue(message, at(3000));
      const lane = (kinds: { kinds?: string[]; exceptKinds?: string[] }) =>
        outbox().claimDue({ token: freshValue("claim"), limit: 10, now: at(3001), holdUntil: at(3060), ...kinds });
      const mailLane = await lane({ exceptKinds: ["contract-other"] });
      expect(mailLane.map((message) => message.recipient)).toEqual([letter.recipient]);
      const otherLane = await lane({ kinds: ["contract-other"] });
      expect(otherLane.map((message) => message.recipient)).toEqual([other.recipient]);
      for (const message of [...mailLane, ...otherLane]) await outbox().drop(message);
    });

    it("pages newest first, then by id, after a position, with a status filter", async () => {
      const written = [mail(), mail(), mail()];
      const ids: string[] = [];
      for (const message of written) ids.push(await outbox().queue(message, at(-9000)));
      await outbox().queue(mail(), at(-8999));
      const newestFirst = [...ids].sort().reverse();
      // After the position of the message written a second later with the smallest id: before it, all three.
      const page = await outbox().page({ status: "queued", after: { createdAt: at(-8999), id: "" }, limit: 2 });
      expect(page.map((message) => message.id)).toEqual(newestFirst.slice(0, 2));
      const next = await outbox().page({
        status: "queued",
        after: { createdAt: at(-9000), id: newestFirst[1] },
        limit: 5,
      });
      expect(next[0].id).toBe(newestFirst[2]);
      expect(next.every((message) => message.createdAt < at(-9000) || message.id < newestFirst[1])).toBe(true);
      expect(await outbox().page({ status: "sent", after: { createdAt: at(-8998), id: "" }, limit: 10 })).toEqual(
        (await outbox().page({ status: "sent", limit: 100 }))
          .filter((message) => message.createdAt < at(-8998))
          .slice(0, 10),
      );
    });
  });
}
