/**
 * `npm run bench -- passwords`: password sign-ins per second on the server core, through SilentLogin (one password
 * check, then a ticket), for users whose hashes are scrypt (N=2^17, r=8: OptiGate's algorithm before) and Argon2id
 * (m=19 MiB, t=2, p=1: now), each on a server that hashes new passwords with that algorithm, so that nothing is hashed
 * anew during the load; the serving process's resident memory is sampled meanwhile. Then, one at a time, the first
 * sign-ins of users whose hashes are still scrypt: on the scrypt server as they were, on the Argon2id server with the
 * hash made anew in the same request.
 */
import type { DatabaseTarget } from "@/lib/config/database-url";
import { hashPassword } from "@/lib/crypto/password";
import { DEFAULT_PASSWORD_HASHING, usePasswordHashing, type PasswordHashing } from "@/lib/crypto/password-hashing";
import { closeDb, createPrismaClient } from "@/lib/db/prisma";
import { prepareBenchFixtures } from "./fixtures";
import {
  CONNECTIONS,
  OPTIGATE_SERVER,
  recordMeasurement,
  residentBytes,
  sized,
  startServer,
  stop,
  type Measurement,
} from "./runner";

type Algorithm = PasswordHashing["algorithm"];
const ALGORITHMS: Algorithm[] = ["scrypt", "argon2id"];
const PASSWORD = "Bench#Password2026";
/** Users signing in round robin: the account throttle takes 5 attempts at once, the 16 connections spread over them. */
const USERS = 32;
/** Users whose scrypt hash is made anew at their first sign-in on the Argon2id server. */
const FIRST_SIGN_INS = sized(8, 2);
/** Keycloak's published anchor is 15 password logins/s per vCPU; OptiGate's goal with Argon2id is twice that. */
const GOAL_PER_SECOND = 30;
const GOAL_RESIDENT_MB = 300;
/** A long window: a scrypt sign-in among 16 takes seconds on one core. */
const WARMUP_MS = sized(3_000, 0);
const MEASURED_MS = sized(20_000, 1_000);
const SILENT_LOGIN = "/services/login/SilentLogin";

interface PasswordRun {
  provider: string;
  algorithm: Algorithm;
  rps: number;
  idleMb: number;
  peakMb: number;
  firstSignInMs: number;
}
const passwordRuns: PasswordRun[] = [];

const email = (group: string, index: number) => `bench-${group}-${index}@optiker.example`;

/** The bench users, all with the same password: one hash per algorithm, the same work for every check. */
async function seedUsers(target: DatabaseTarget): Promise<void> {
  await prepareBenchFixtures(target, "ES256", 0, 0);
  const hashes: Record<Algorithm, string> = { scrypt: "", argon2id: "" };
  for (const algorithm of ALGORITHMS) {
    usePasswordHashing({ ...DEFAULT_PASSWORD_HASHING, algorithm });
    hashes[algorithm] = await hashPassword(PASSWORD);
  }
  usePasswordHashing(DEFAULT_PASSWORD_HASHING);
  const groups: [string, number, string][] = [
    ["scrypt", USERS, hashes.scrypt],
    ["argon2id", USERS, hashes.argon2id],
    ["first", FIRST_SIGN_INS, hashes.scrypt],
  ];
  const db = createPrismaClient(target);
  await db.user.createMany({
    data: groups.flatMap(([group, count, passwordHash]) =>
      Array.from({ length: count }, (_, index) => ({
        email: email(group, index),
        givenName: "Bench",
        familyName: `User ${index}`,
        companyId: "demo-company-optician",
        emailVerified: true,
        passwordHash,
      })),
    ),
  });
  await closeDb(db);
}

const signInBody = (address: string) => new URLSearchParams({ username: address, password: PASSWORD }).toString();

async function signInOnce(baseUrl: string, address: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}${SILENT_LOGIN}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: signInBody(address),
  });
  if (response.status !== 200) throw new Error(`SilentLogin of ${address} answered ${response.status}`);
  await response.arrayBuffer();
  return performance.now() - started;
}

/** The peak of the process's resident memory while `work` runs, sampled every 50 ms. */
async function peakResidentMb(pid: number, work: () => Promise<unknown>): Promise<number> {
  let peak = residentBytes(pid);
  const timer = setInterval(() => (peak = Math.max(peak, residentBytes(pid))), 50);
  try {
    await work();
    return peak / 2 ** 20;
  } finally {
    clearInterval(timer);
  }
}

/**
 * Each request from another address, as behind a proxy (TRUSTED_PROXIES=1): the address throttle takes 20 attempts
 * at once, and with answers of seconds a connection's next request may come while its last one is still in the
 * server's hands.
 */
const fromAddress = (index: number) => ({ "x-forwarded-for": `198.18.${index >> 8}.${index & 255}` });

/**
 * CONNECTIONS sign-ins under way at all times, each connection sending its next as its last one is answered, through
 * the warm-up and the measured window; the answers within the window count. Not autocannon: it ends its warm-up with a
 * request of every connection still in the server's hands, and with scrypt's answers of seconds those would fill
 * the measured window.
 */
async function signInLoad(name: string, baseUrl: string, algorithm: Algorithm): Promise<Measurement> {
  const start = performance.now() + WARMUP_MS;
  const end = start + MEASURED_MS;
  const windowEnd = new AbortController();
  const latencies: number[] = [];
  let [nextUser, nextAddress, errors] = [0, 0, 0];
  const connection = async () => {
    while (performance.now() < end) {
      const sent = performance.now();
      const status = await fetch(`${baseUrl}${SILENT_LOGIN}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...fromAddress(nextAddress++ % 1024) },
        body: signInBody(email(algorithm, nextUser++ % USERS)),
        signal: windowEnd.signal,
      })
        .then(async (response) => (await response.arrayBuffer(), response.status))
        .catch(() => (windowEnd.signal.aborted ? undefined : 0));
      const answered = performance.now();
      if (status === undefined) return;
      if (status !== 200) errors++;
      else if (answered >= start && answered <= end) latencies.push(answered - sent);
    }
  };
  const timer = setTimeout(() => windowEnd.abort(), end - performance.now());
  await Promise.all(Array.from({ length: CONNECTIONS }, connection));
  clearTimeout(timer);
  latencies.sort((a, b) => a - b);
  const quantile = (q: number) => Math.round(latencies[Math.floor(q * latencies.length)] ?? 0);
  const rps = Math.round((latencies.length / MEASURED_MS) * 10_000) / 10;
  return recordMeasurement({ name, rps, p50: quantile(0.5), p99: quantile(0.99), errors });
}

async function benchAlgorithm(target: DatabaseTarget, algorithm: Algorithm): Promise<void> {
  const { child, baseUrl } = await startServer(OPTIGATE_SERVER, target, "ES256", {
    PASSWORD_HASH_ALGORITHM: algorithm,
    TRUSTED_PROXIES: "1",
  });
  try {
    const idleMb = residentBytes(child.pid!) / 2 ** 20;
    // One at a time, before the load: the rehash's cost on an idle server.
    let firstSignInMs = 0;
    for (let index = 0; index < FIRST_SIGN_INS; index++)
      firstSignInMs += (await signInOnce(baseUrl, email("first", index))) / FIRST_SIGN_INS;
    let rps = 0;
    const peakMb = await peakResidentMb(child.pid!, async () => {
      rps = (await signInLoad(`${target.provider} SilentLogin, ${algorithm} hashes`, baseUrl, algorithm)).rps;
    });
    passwordRuns.push({ provider: target.provider, algorithm, rps, idleMb, peakMb, firstSignInMs });
  } finally {
    await stop(child);
  }
}

/** The scrypt server first: it leaves the scrypt hashes of the first sign-ins as they are, for the Argon2id server. */
export async function benchPasswords(target: DatabaseTarget): Promise<void> {
  await seedUsers(target);
  for (const algorithm of ALGORITHMS) await benchAlgorithm(target, algorithm);
  const db = createPrismaClient(target);
  const rehashed = await db.user.count({
    where: { email: { startsWith: "bench-first-" }, passwordHash: { startsWith: "$argon2id$" } },
  });
  await closeDb(db);
  if (rehashed !== FIRST_SIGN_INS) throw new Error(`${rehashed} of ${FIRST_SIGN_INS} scrypt hashes were made anew`);
}

export function reportPasswords(check: (label: string, ok: boolean) => void): void {
  for (const run of passwordRuns) {
    console.log(
      `  ${`${run.provider} ${run.algorithm} password sign-ins`.padEnd(48)} ${run.rps} /s per core, resident ${run.idleMb.toFixed(0)} MB idle, ${run.peakMb.toFixed(0)} MB peak under load; a first scrypt sign-in ${run.firstSignInMs.toFixed(0)} ms${run.algorithm === "argon2id" ? " (with the new hash)" : ""}`,
    );
    if (run.algorithm === "argon2id")
      check(
        `${run.provider}: >= ${GOAL_PER_SECOND} Argon2id sign-ins/s per core at <= ${GOAL_RESIDENT_MB} MB resident (${run.rps}/s, ${run.peakMb.toFixed(0)} MB)`,
        run.rps >= GOAL_PER_SECOND && run.peakMb <= GOAL_RESIDENT_MB,
      );
  }
}
