/**
 * For the sign-in notice tests: the outbox delivered to a real SMTP server by the outbox worker (with the password
 * reset composer, as "not me" starts a reset), people of a given company, browsers that name themselves, and the
 * notices and links that reach a mailbox.
 */
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { passwordResetComposer } from "@/lib/account/password-reset";
import { NO_ADDRESS_RANGES } from "@/lib/config/address-ranges";
import { hashPassword } from "@/lib/crypto/password";
import type { Db } from "@/lib/db/prisma";
import { createOutboxWorker, type OutboxWorker } from "@/lib/mail/outbox-worker";
import { smtpSender } from "@/lib/mail/smtp-sender";
import { prismaStores } from "@/lib/store/stores";
import { ISSUER, SECRET_KEY, UserAgent } from "./oauth-service";
import { startSmtpSink, type ReceivedMail, type SmtpSink } from "./smtp-sink";

export const FIREFOX_ON_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0";
export const PASSWORD = "a long enough passphrase 7";

/** A browser without any cookie of a sign-in yet, naming itself Firefox on Linux. */
export const freshBrowser = (language = "en") => new UserAgent(language, "198.51.100.7", FIREFOX_ON_LINUX);

export interface NoticeMail {
  /** Delivers what is due; the mail that reached `to` since the test began. */
  delivered(to: string): Promise<ReceivedMail[]>;
  /** The new-sign-in notices queued for `to` so far, delivered or not. */
  noticesTo(to: string): Promise<number>;
  /** A person of the company with the test's password; `role` user unless given. */
  newPerson(
    companyId: string,
    fields?: { role?: string; preferredLanguage?: string },
  ): Promise<{ id: string; email: string }>;
}

export function useNoticeMail(db: () => Db): NoticeMail {
  let smtp: SmtpSink;
  let worker: OutboxWorker;
  const config = {
    publicUrl: ISSUER,
    secretKey: SECRET_KEY,
    passwordMinLength: 12,
    passwordBreach: null,
    production: false,
    outboundAllow: NO_ADDRESS_RANGES,
  };
  beforeAll(async () => {
    smtp = await startSmtpSink();
    worker = createOutboxWorker({
      outbox: prismaStores(db()).outbox,
      secretKey: SECRET_KEY,
      sender: smtpSender(smtp.url, "OptiGate <no-reply@optigate.test>"),
      composers: { password_reset: passwordResetComposer({ stores: prismaStores(db()), config }) },
    });
  });
  afterAll(async () => {
    await worker.stop();
    await smtp.close();
  });
  beforeEach(() => {
    smtp.received.length = 0;
  });
  let counter = 0;
  return {
    async delivered(to) {
      await worker.deliverDue();
      return smtp.received.filter((mail) => mail.to === to);
    },
    noticesTo: (to) => db().outboxMessage.count({ where: { kind: "new_sign_in", recipient: to } }),
    async newPerson(companyId, fields = {}) {
      const email = `notice-${++counter}-${Date.now()}@example.com`;
      const user = await db().user.create({
        data: {
          email,
          givenName: "Nora",
          familyName: "Notice",
          companyId,
          passwordHash: await hashPassword(PASSWORD),
          role: fields.role ?? "user",
          preferredLanguage: fields.preferredLanguage,
          // Made before any request of the test: a sign-in in the same millisecond would count as its first.
          createdAt: new Date(Date.now() - 1000),
        },
      });
      return { id: user.id, email };
    },
  };
}

/** Signs in with the password in the browser (a fresh one unless given), all the way to a session. */
export async function signIn(email: string, agent = freshBrowser()): Promise<UserAgent> {
  const response = await agent.login("/", email, PASSWORD);
  expect(response.headers.get("location")).toBe("/");
  return agent;
}

/** The "not me" link of a notice mail, and its token. */
export function notMeLinkOf(mail: ReceivedMail): { url: URL; token: string } {
  const url = new URL(mail.text.match(/https?:\/\/\S+\/login\/not-me\?\S+/)![0]);
  return { url, token: url.searchParams.get("token")! };
}
