/**
 * People at scale: `users import` of INVITATIONS rows (every row checked, then stored in one transaction with its
 * sealed mail and audit event) in a capped heap, timed with its peak resident memory next to the same CLI listing
 * users (40,000 rows fit the same heap: the memory does not grow with the file); then the
 * outbox worker, on the server core, delivering the mail those rows queued to a local SMTP server.
 */
import { once } from "node:events";
import { writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import type { DatabaseTarget } from "@/lib/config/database-url";
import { runAdmin, type CliRun } from "./catalog-bench";
import { prepareBenchFixtures } from "./fixtures";
import { onServerCore, SECRET_KEY, sized, stop } from "./runner";

export const INVITATIONS = sized(10_000, 200);
/** The import's JavaScript heap is capped: it must run in bounded memory, whatever the file's length. */
const IMPORT_HEAP_MB = 128;

export interface PeopleResult {
  provider: string;
  importRun: CliRun;
  listRun: CliRun;
  delivery: { sent: number; seconds: number; received: number };
}

/** An SMTP server that takes every message and counts it, as fast as it can. */
async function countingSmtpServer(): Promise<{ url: string; received: () => number; close: () => Promise<void> }> {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      stream.resume();
      stream.on("end", () => {
        received++;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    received: () => received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function drainOutbox(target: DatabaseTarget, smtpUrl: string): Promise<{ sent: number; seconds: number }> {
  const child = onServerCore([process.execPath, "--import", "tsx", "scripts/bench/outbox-drain.ts"], {
    DATABASE_URL: target.url,
    SECRET_KEY,
    SMTP_URL: smtpUrl,
    NODE_ENV: "test",
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  const [code] = (await once(child, "exit")) as [number | null];
  await stop(child);
  if (code !== 0) throw new Error(`the outbox drain failed (exit ${code}): ${output}`);
  return JSON.parse(output.trim().split("\n").at(-1)!);
}

export async function benchPeople(target: DatabaseTarget, directory: string): Promise<PeopleResult> {
  await prepareBenchFixtures(target, "ES256", 0, 0);
  const file = path.join(directory, `invitations-${target.provider}.csv`);
  const rows = Array.from(
    { length: INVITATIONS },
    (_, index) => `bench-${index}@optiker.example,demo-company-optician,,de`,
  );
  writeFileSync(file, `email,company,role,language\n${rows.join("\n")}\n`);
  const env = { DATABASE_URL: target.url, SECRET_KEY, PUBLIC_URL: "http://localhost:3000", NODE_ENV: "production" };
  const listRun = await runAdmin(["users", "list", "--company", "demo-company-lens"], env);
  const importRun = await runAdmin(["users", "import", file], env, [`--max-old-space-size=${IMPORT_HEAP_MB}`]);
  if (importRun.code !== 0) throw new Error(`the bench import failed:\n${importRun.output.slice(-2000)}`);
  const smtp = await countingSmtpServer();
  try {
    const delivery = await drainOutbox(target, smtp.url);
    return { provider: target.provider, importRun, listRun, delivery: { ...delivery, received: smtp.received() } };
  } finally {
    await smtp.close();
  }
}

export function reportPeople(results: PeopleResult[], check: (label: string, ok: boolean) => void): void {
  for (const { provider, importRun, listRun, delivery } of results) {
    const rate = Math.round(delivery.sent / delivery.seconds);
    console.log(
      `  ${`${provider} users import, ${INVITATIONS} invitations`.padEnd(48)} ${importRun.seconds.toFixed(1)} s, JavaScript heap capped at ${IMPORT_HEAP_MB} MB, peak resident memory ${importRun.peakMb.toFixed(1)} MB (CLI listing users: ${listRun.peakMb.toFixed(1)} MB)`,
    );
    console.log(
      `  ${`${provider} outbox worker to local SMTP`.padEnd(48)} ${rate} messages/s (${delivery.sent} in ${delivery.seconds.toFixed(1)} s, ${delivery.received} received)`,
    );
    check(
      `${provider}: users import of ${INVITATIONS} within 60 s (${importRun.seconds.toFixed(1)} s)`,
      importRun.seconds < 60,
    );
    check(
      `${provider}: import in a ${IMPORT_HEAP_MB} MB heap, resident memory < 200 MB over the idle CLI (${(importRun.peakMb - listRun.peakMb).toFixed(1)} MB)`,
      importRun.peakMb - listRun.peakMb < 200,
    );
    check(
      `${provider}: outbox worker >= 200 messages/s (${rate}), every message received once (${delivery.received} of ${INVITATIONS + 1})`,
      rate >= 200 && delivery.received === delivery.sent && delivery.sent >= INVITATIONS,
    );
  }
}
