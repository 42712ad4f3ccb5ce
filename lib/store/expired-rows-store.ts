/**
 * Expired rows, removed as they can never be used again: refresh tokens a day after they expired (rotated-out tokens
 * stay until then, so that their reuse is still caught), authorization codes a day after they expired (a code
 * presented again within that day still revokes what it issued), tickets, consent prompts, login sessions a day after
 * they ended or expired, throttle counters whose window (the longest any counter uses) and lock are over, used
 * assertion ids whose assertions have expired, account links and sign-in notices a day after they expired, WebAuthn
 * challenges once expired, pushed authorization requests once expired, device authorization requests an hour after
 * they expired (a device still polling is told expired_token), password reset requests still waiting after a link's
 * lifetime (no mail server: a link mailed later would be no use), and audit events older than the retention the
 * caller gives (AUDIT_RETENTION_DAYS). Each kind is deleted in batches of at most `batch` rows per
 * round, selected through an index on the expiry, so a round never holds a long transaction or a large delete. purgeUntilDrained repeats rounds
 * while they come back full, pausing between them so that requests get the database in between; the Node server runs
 * it every PURGE_INTERVAL_MS, and `npm run admin -- purge` on demand.
 */
import {
  DEVICE_EXPIRED_KEPT_SECONDS,
  EMAIL_CHANGE_WINDOW_SECONDS,
  PASSWORD_RESET_LINK_MINUTES,
  PASSWORD_RESET_WINDOW_SECONDS,
  THROTTLE_WINDOW_SECONDS,
  LONGEST_PROOF_OF_WORK_WINDOW_SECONDS,
} from "@/lib/config/policy";
import type { Db } from "@/lib/db/prisma";
import { prismaAuditStore } from "@/lib/store/audit-store";
import type { ProgressListener } from "@/lib/observability/progress";

const PURGE_BATCH = 1000;
export const PURGE_INTERVAL_MS = 10 * 60 * 1000;
/** Between rounds of one run, and the most rounds a run makes (what is left waits for the next run). */
const PURGE_PAUSE_MS = 50;
const PURGE_MAX_ROUNDS = 200;
const GRACE_MS = 24 * 3600 * 1000;
const LONGEST_THROTTLE_WINDOW_SECONDS = Math.max(
  THROTTLE_WINDOW_SECONDS,
  PASSWORD_RESET_WINDOW_SECONDS,
  EMAIL_CHANGE_WINDOW_SECONDS,
  LONGEST_PROOF_OF_WORK_WINDOW_SECONDS,
);

export type PurgeCounts = Record<
  | "refreshTokens"
  | "authorizationCodes"
  | "tickets"
  | "interactions"
  | "loginSessions"
  | "throttles"
  | "usedAssertions"
  | "accountLinks"
  | "signInNotices"
  | "resetRequests"
  | "webauthnChallenges"
  | "pushedRequests"
  | "deviceAuthorizations"
  | "auditEvents",
  number
>;

/**
 * What counts as expired at `now`: tokens, codes, sessions and links a day past their end, throttle windows that the
 * longest counter has left, and reset requests still queued after a link's lifetime.
 */
export const purgeCutoffs = (now: Date) => ({
  dayAgo: new Date(now.getTime() - GRACE_MS),
  windowStart: new Date(now.getTime() - LONGEST_THROTTLE_WINDOW_SECONDS * 1000),
  resetRequestsBefore: new Date(now.getTime() - PASSWORD_RESET_LINK_MINUTES * 60_000),
  deviceRequestsBefore: new Date(now.getTime() - DEVICE_EXPIRED_KEPT_SECONDS * 1000),
});

// Each batch is selected in the order of its expiry: without an order Prisma adds one by primary key, and SQLite then
// walks the whole table in key order (1.2 s a round among 500,000 live codes) instead of the expiry index.
async function selectExpired(db: Db, now: Date, batch: number) {
  const { dayAgo, windowStart, resetRequestsBefore, deviceRequestsBefore } = purgeCutoffs(now);
  const refreshTokens = await db.refreshToken.findMany({
    where: { expiresAt: { lt: dayAgo } },
    select: { id: true },
    orderBy: { expiresAt: "asc" },
    take: batch,
  });
  const codes = await db.authorizationCode.findMany({
    where: { expiresAt: { lt: dayAgo } },
    select: { id: true },
    orderBy: { expiresAt: "asc" },
    take: batch,
  });
  const tickets = await db.ticket.findMany({
    where: { expiresAt: { lt: now } },
    select: { id: true },
    orderBy: { expiresAt: "asc" },
    take: batch,
  });
  const interactions = await db.authorizationInteraction.findMany({
    where: { expiresAt: { lt: now } },
    select: { idHash: true },
    orderBy: { expiresAt: "asc" },
    take: batch,
  });
  const sessions = await db.loginSession.findMany({
    where: { OR: [{ expiresAt: { lt: dayAgo } }, { endedAt: { lt: dayAgo } }] },
    select: { id: true },
    orderBy: { expiresAt: "asc" },
    take: batch,
  });
  const throttles = await db.loginThrottle.findMany({
    where: { windowStartedAt: { lt: windowStart }, OR: [{ lockedUntil: null }, { lockedUntil: { lt: now } }] },
    select: { key: true },
    orderBy: { windowStartedAt: "asc" },
    take: batch,
  });
  const assertions = await db.usedAssertion.findMany({
    where: { expiresAt: { lt: now } },
    select: { key: true },
    orderBy: { expiresAt: "asc" },
    take: batch,
  });
  const links = await db.accountLink.findMany({
    where: { expiresAt: { lt: dayAgo } },
    select: { id: true },
    orderBy: { expiresAt: "asc" },
    take: batch,
  });
  const notices = await db.signInNotice.findMany({
    where: { expiresAt: { lt: dayAgo } },
    select: { id: true },
    orderBy: { expiresAt: "asc" },
    take: batch,
  });
  const challenges = await db.webauthnChallenge.findMany({
    where: { expiresAt: { lt: now } },
    select: { id: true },
    orderBy: { expiresAt: "asc" },
    take: batch,
  });
  const pushedRequests = await db.pushedAuthorizationRequest.findMany({
    where: { expiresAt: { lt: now } },
    select: { idHash: true },
    orderBy: { expiresAt: "asc" },
    take: batch,
  });
  const deviceAuthorizations = await db.deviceAuthorization.findMany({
    where: { expiresAt: { lt: deviceRequestsBefore } },
    select: { id: true },
    orderBy: { expiresAt: "asc" },
    take: batch,
  });
  const resetRequests = await db.outboxMessage.findMany({
    where: {
      kind: "password_reset",
      status: "queued",
      createdAt: { lt: resetRequestsBefore },
    },
    select: { id: true },
    orderBy: { createdAt: "asc" },
    take: batch,
  });

  return {
    refreshTokens,
    codes,
    tickets,
    interactions,
    sessions,
    throttles,
    assertions,
    links,
    notices,
    challenges,
    pushedRequests,
    deviceAuthorizations,
    resetRequests,
  };
}

/** When audit events recorded before it are purged: `retentionDays` before `now`; none are without a retention. */
export const auditCutoff = (now: Date, retentionDays: number | undefined): Date | undefined =>
  retentionDays === undefined ? undefined : new Date(now.getTime() - retentionDays * 24 * 3600 * 1000);

export async function purgeExpired(
  db: Db,
  now = new Date(),
  batch = PURGE_BATCH,
  auditEventsBefore?: Date,
): Promise<PurgeCounts> {
  const expired = await selectExpired(db, now, batch);

  return {
    refreshTokens: (
      await db.refreshToken.deleteMany({ where: { id: { in: expired.refreshTokens.map((row) => row.id) } } })
    ).count,
    authorizationCodes: (
      await db.authorizationCode.deleteMany({ where: { id: { in: expired.codes.map((row) => row.id) } } })
    ).count,
    tickets: (await db.ticket.deleteMany({ where: { id: { in: expired.tickets.map((row) => row.id) } } })).count,
    interactions: (
      await db.authorizationInteraction.deleteMany({
        where: { idHash: { in: expired.interactions.map((row) => row.idHash) } },
      })
    ).count,
    loginSessions: (await db.loginSession.deleteMany({ where: { id: { in: expired.sessions.map((row) => row.id) } } }))
      .count,
    throttles: (await db.loginThrottle.deleteMany({ where: { key: { in: expired.throttles.map((row) => row.key) } } }))
      .count,
    usedAssertions: (
      await db.usedAssertion.deleteMany({ where: { key: { in: expired.assertions.map((row) => row.key) } } })
    ).count,
    accountLinks: (await db.accountLink.deleteMany({ where: { id: { in: expired.links.map((row) => row.id) } } }))
      .count,
    signInNotices: (await db.signInNotice.deleteMany({ where: { id: { in: expired.notices.map((row) => row.id) } } }))
      .count,
    resetRequests: (
      await db.outboxMessage.deleteMany({
        where: { id: { in: expired.resetRequests.map((row) => row.id) }, status: "queued", claimToken: null },
      })
    ).count,
    webauthnChallenges: (
      await db.webauthnChallenge.deleteMany({ where: { id: { in: expired.challenges.map((row) => row.id) } } })
    ).count,
    pushedRequests: (
      await db.pushedAuthorizationRequest.deleteMany({
        where: { idHash: { in: expired.pushedRequests.map((row) => row.idHash) } },
      })
    ).count,
    deviceAuthorizations: (
      await db.deviceAuthorization.deleteMany({
        where: { id: { in: expired.deviceAuthorizations.map((row) => row.id) } },
      })
    ).count,
    auditEvents: auditEventsBefore ? await prismaAuditStore(db).purgeBefore(auditEventsBefore, batch) : 0,
  };
}

/** How a purge runs: at `now`, in rounds of at most `batch` rows per kind, `pauseMs` apart, at most `maxRounds`. */
export interface PurgeOptions {
  now?: Date;
  batch?: number;
  pauseMs?: number;
  maxRounds?: number;
  /** Told the rows removed so far after each round (how many there are in all is not counted). */
  onProgress?: ProgressListener;
  /** Audit events older than this many days are purged too (AUDIT_RETENTION_DAYS); absent, none are. */
  auditRetentionDays?: number;
}

/**
 * Rounds of `round` until none comes back full (or maxRounds); the counts added up. The memory stores drain with the
 * same rounds, so that both implementations stop, pause and report alike.
 */
export async function drainExpired(
  round: (now: Date, batch: number) => Promise<PurgeCounts> | PurgeCounts,
  options: PurgeOptions = {},
): Promise<PurgeCounts> {
  const { now = new Date(), batch = PURGE_BATCH, pauseMs = PURGE_PAUSE_MS, maxRounds = PURGE_MAX_ROUNDS } = options;
  const sum = (counts: PurgeCounts) => Object.values(counts).reduce((all, count) => all + count, 0);
  const total = await round(now, batch);
  options.onProgress?.(sum(total));
  let roundWasFull = Object.values(total).some((count) => count >= batch);
  for (let rounds = 1; rounds < maxRounds && roundWasFull; rounds++) {
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    const counts = await round(now, batch);
    for (const kind of Object.keys(total) as (keyof PurgeCounts)[]) total[kind] += counts[kind];
    options.onProgress?.(sum(total));
    roundWasFull = Object.values(counts).some((count) => count >= batch);
  }
  return total;
}

/** Rounds of purgeExpired on the database until none comes back full (or maxRounds); the counts added up. */
export const purgeUntilDrained = (db: Db, options: PurgeOptions = {}): Promise<PurgeCounts> =>
  drainExpired((now, batch) => purgeExpired(db, now, batch, auditCutoff(now, options.auditRetentionDays)), options);
