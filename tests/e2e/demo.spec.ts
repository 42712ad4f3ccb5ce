/**
 * `npm run demo` as a newcomer runs it (scripts/demo.ts): its own mail catcher and SMTP_URL, a fresh database and a
 * free port, serving the build this run tests (it must not build again). A password reset is asked for on
 * /password/forgot, its mail read on the catcher's page, which /admin/outbox links, and followed: the person sets a
 * new password and arrives signed in. The terminal shows a line per page or API call, none for static files, and none
 * of Next's notices; Ctrl-C stops the server and the catcher with it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Browser } from "@playwright/test";
import { isBuildCurrent } from "../../scripts/build-stamp";
import { freePort } from "./raw-http";

// One demo, one tour: each test goes on from where the one before left it.
test.describe.configure({ mode: "serial" });

let demo: ChildProcess;
let exited: Promise<number | null>;
let output = "";
let base: string;
let catcherUrl: string;

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 100) {
    if (waited > timeoutMs) throw new Error(`${what} within ${timeoutMs} ms; the demo printed:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  // Otherwise the demo would build, under the feet of the servers of the other tests.
  expect(isBuildCurrent(), "the build is not that of the sources: run npm run build first").toBe(true);
  const port = await freePort();
  base = `http://localhost:${port}`;
  const directory = mkdtempSync(path.join(tmpdir(), "optigate-demo-"));
  // As a newcomer starts it: no SMTP_URL, log format or public URL of the test run's own.
  const { SMTP_URL: _smtp, LOG_FORMAT: _format, PUBLIC_URL: _url, ...env } = process.env;
  demo = spawn(process.execPath, ["--import", "tsx", "scripts/demo.ts"], {
    env: { ...env, PORT: String(port), DATABASE_URL: `file:${path.join(directory, "optigate.db")}` },
    stdio: ["ignore", "pipe", "pipe"],
  });
  exited = new Promise((resolve) => demo.on("exit", resolve));
  demo.stdout!.on("data", (chunk) => (output += chunk));
  demo.stderr!.on("data", (chunk) => (output += chunk));
  await until(() => output.includes("OptiGate is serving"), 90_000, "the demo did not serve");
  catcherUrl = /Mail catcher: the mail OptiGate sends is on (\S+)/.exec(output)![1];
});

test.afterAll(async () => {
  if (demo.exitCode !== null || demo.signalCode !== null) return;
  demo.kill("SIGTERM");
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 40_000))]);
});

async function signedIn(browser: Browser, username: string, password: string) {
  const page = await (await browser.newContext({ baseURL: base })).newPage();
  await page.goto("/login");
  await page.fill("input[name=username]", username);
  await page.locator("button[type=submit]").click();
  await page.fill("input[name=password]", password);
  await page.locator("button[type=submit]").click();
  await page.waitForURL((url) => url.pathname !== "/login");
  return page;
}

test("a password reset is followed from the demo's mail catcher, and the person arrives signed in", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const page = await (await browser.newContext({ baseURL: base })).newPage();
  await page.goto("/password/forgot");
  await page.fill("input[name=email]", "supplier@demo.test");
  await page.locator("button[type=submit]").click();
  await expect(page.getByRole("status")).toContainText("If the address belongs to an active OptiGate account");

  // The outbox sends within seconds; the catcher's page shows what it caught when it is loaded.
  const mail = page.locator('article[data-recipient="supplier@demo.test"]', {
    has: page.locator("h2", { hasText: "Set a new OptiGate password" }),
  });
  await expect(async () => {
    await page.goto(catcherUrl);
    await expect(mail).toHaveCount(1, { timeout: 500 });
  }).toPass({ timeout: 30_000 });
  await page.screenshot({ path: test.info().outputPath("mail-catcher.png"), fullPage: true });
  await mail.locator('a[href*="/password/reset?"]').click();
  await expect(page).toHaveURL(/\/password\/reset(\?ui_locales=en)?$/);
  await page.fill("input[name=password]", "fassung gleitsicht sonnenbrille");
  await page.locator("button[type=submit]").click();
  await page.waitForURL((url) => !url.pathname.startsWith("/password/"));
  await page.goto("/portal/profile");
  await expect(page).toHaveURL(`${base}/portal/profile`);
  await expect(page.locator("input[name=new_email]")).toBeVisible();
  expect(output).toContain(`mail to supplier@demo.test: "Set a new OptiGate password" (read it on ${catcherUrl})`);
});

test("the outbox links the catcher's page, where the sent mail can be read", async ({ browser }) => {
  const page = await signedIn(browser, "admin@demo.test", "Admin#2026");
  await page.goto("/admin/outbox");
  await expect(page.locator("a[data-mail-catcher]")).toHaveAttribute("href", catcherUrl);
  await expect(page.locator('[data-recipient="supplier@demo.test"]').first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("outbox-with-catcher.png"), fullPage: true });
});

test("the terminal has a line per page or API call and no static files, notices or JSON", async () => {
  const lines = output.split("\n");
  expect(lines).toContainEqual(expect.stringMatching(/^GET \/password\/forgot 200 \d+ ms$/));
  expect(lines).toContainEqual(expect.stringMatching(/^GET \/admin\/outbox 200 \d+ ms$/));
  expect(lines.filter((line) => /\/_next\/|\.(?:js|css|woff2?|svg|ico)\b/.test(line))).toEqual([]);
  expect(lines.filter((line) => line.startsWith("{"))).toEqual([]);
  expect(output).not.toMatch(/telemetry|Experiments|standalone/i);
});

test("Ctrl-C stops the server gracefully, then the mail catcher", async ({ browser }) => {
  test.setTimeout(60_000);
  // Open pages keep connections busy (Next.js prefetches links), which a graceful stop would wait for.
  for (const context of browser.contexts()) await context.close();
  demo.kill("SIGINT");
  expect(await exited).toBe(0);
  expect(output).toContain("SIGINT: no new connections; finishing the requests in flight");
  await expect(fetch(catcherUrl)).rejects.toThrow();
  await expect(fetch(`${base}/api/health`)).rejects.toThrow();
});
