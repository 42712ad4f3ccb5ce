/**
 * The CLI's long jobs run as real processes. The way cron and CI run them, stderr is no terminal: no progress is
 * drawn (no "\r" redraws in a log), and each prints its one summary line as it always has; `npm run migrate`, the
 * fourth, is run so in tests/integration/deploy/route-handlers-only.test.ts (its summary, and an empty stderr). On a
 * terminal (a pseudo-terminal made by util-linux's `script`) the purge redraws its progress line in place.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { hashToken } from "@/lib/crypto/tokens";
import { runScript } from "../../helpers/run-script";
import { SECRET_KEY, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const folder = mkdtempSync(path.join(tmpdir(), "optigate-long-jobs-"));

const admin = (...args: string[]) =>
  runScript("scripts/admin.ts", args, { DATABASE_URL: service().database.target.url, SECRET_KEY });

/** The CLI on a pseudo-terminal: what the terminal showed, stdout and stderr together. */
function adminOnTerminal(...args: string[]): Promise<string> {
  // `script` runs the command through a shell: each word quoted, in case a path holds a space.
  const command = [process.execPath, "--import", "tsx", "scripts/admin.ts", ...args].map((word) => `'${word}'`);
  const env = { ...process.env, NODE_ENV: "test" as const, DATABASE_URL: service().database.target.url, SECRET_KEY };
  return new Promise((resolve, reject) =>
    execFile("script", ["-qec", command.join(" "), "/dev/null"], { env }, (error, shown) =>
      error ? reject(error) : resolve(shown),
    ),
  );
}

async function expireTickets(count: number, label: string): Promise<void> {
  const { db } = service().database;
  const user = await db.user.findUniqueOrThrow({ where: { email: "optician@demo.test" } });
  const expired = new Date(Date.now() - 3600_000);
  for (let start = 0; start < count; start += 5000) {
    const indexes = Array.from({ length: Math.min(5000, count - start) }, (_, index) => start + index);
    await db.ticket.createMany({
      data: indexes.map((index) => ({
        ticketHash: hashToken(`${label}-${index}`),
        userId: user.id,
        createdAt: expired,
        expiresAt: expired,
      })),
    });
  }
}

function file(name: string, text: string): string {
  const target = path.join(folder, name);
  writeFileSync(target, text);
  return target;
}

describe(`long CLI jobs off a terminal on ${testProvider()}`, () => {
  it("purge prints what it removed, and draws nothing", async () => {
    await expireTickets(3, "off-terminal");
    const result = await admin("purge");
    expect([result.code, result.stderr]).toEqual([0, ""]);
    const [summary] = result.stdout.split("\n");
    expect(summary).toMatch(/^Removed \d+ refresh tokens?, \d+ authorization codes?, \d+ tickets?, .*\.$/);
    expect(Number(/(\d+) tickets?/.exec(summary)![1])).toBeGreaterThanOrEqual(3);
  });

  it("catalogs import prints the revision it imported, and draws nothing", async () => {
    const example = readFileSync("docs/catalog-example.xml", "utf8").replace(
      'catalogID="catalog.xml" resourceKey="DLAG-DE"',
      'catalogID="catalog_DK.xml" resourceKey="DLAG-DK"',
    );
    const articles = example.split("<Article ").length - 1;
    const result = await admin("catalogs", "import", file("denmark.xml", example));
    expect([result.code, result.stderr]).toEqual([0, ""]);
    expect(result.stdout.split("\n")).toEqual([
      `Imported revision 1 of catalog catalog_DK.xml (DLAG-DK) of supplier DLAG: ${articles} articles, not released yet.`,
      "Release it with: npm run admin -- catalogs release DLAG catalog_DK.xml 1",
      "",
    ]);
  });

  it("users import prints its JSON on stdout and its one summary line on stderr, and draws nothing", async () => {
    const csv =
      "email,company,role,language\nlong-job-1@example.com,demo-company-optician,,\nlong-job-2@example.com,demo-company-lens,,\n";
    const result = await admin("users", "import", file("people.csv", csv));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ invited: 2 });
    expect(result.stderr).toBe("Invited 2 people; their mail is in the outbox.\n");
  });
});

describe(`long CLI jobs on a terminal on ${testProvider()}`, () => {
  it("purge redraws its count and rate in place, ends the line with the time taken, then prints its summary", async () => {
    // Ten rounds of a thousand with pauses between them: longer than one redraw takes, however fast the machine.
    await expireTickets(10_000, "on-terminal");
    const shown = await adminOnTerminal("purge");
    const redraws = shown.match(/\rpurge: [\d,]+ expired rows, [\d,.]+\/s\x1b\[K/g) ?? [];
    expect(redraws.length).toBeGreaterThan(0);
    expect(shown).toMatch(
      /\rpurge: [\d,]+ expired rows in [\d. min]+ s \([\d,.]+\/s\)\x1b\[K\r?\nRemoved \d+ refresh tokens?, /,
    );
    expect(Number(/(\d+) tickets?/.exec(shown)![1])).toBeGreaterThanOrEqual(10_000);
  });
});
