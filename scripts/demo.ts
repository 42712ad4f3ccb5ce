/**
 * `npm run demo`: OptiGate with the demo data, as the README's quick start has a newcomer try it.
 * - Builds only when the sources changed since the last build (scripts/build-stamp.ts), with Next's telemetry off;
 *   the build's own output is shown only when it fails.
 * - Starts a mail catcher (scripts/mail-catcher-server.ts) on free ports other than PORT and points SMTP_URL and
 *   MAIL_CATCHER_URL at it, so that a password reset, an invitation or an email change can be followed from its mail;
 *   /admin/outbox links its page. A given SMTP_URL is kept, and no catcher started.
 * - Serves the build as `npm start` does, with DEMO_DATA=1 and LOG_FORMAT=pretty (a line per page or API call)
 *   unless LOG_FORMAT is given.
 * Ctrl-C stops the server gracefully (a second one at once), then the catcher, and the demo exits with the server's
 * exit code.
 */
import { spawn, spawnSync } from "node:child_process";
import { isBuildCurrent } from "./build-stamp";
import { COMPILED_SERVER } from "./compiled-server";
import { startMailCatcher, type MailCatcher } from "./mail-catcher-server";

/** Two signals this close together are one Ctrl-C: npm passes it on to the demo, which has it from the terminal. */
const SAME_SIGNAL_MS = 1000;

function buildUnlessCurrent(): void {
  if (isBuildCurrent()) return;
  console.log("Building OptiGate (the sources changed since the last build, or there is none): about a minute ...");
  const started = performance.now();
  const build = spawnSync(process.execPath, ["--import", "tsx", "scripts/build.ts"], {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (build.status !== 0) {
    process.stdout.write(build.stdout);
    process.stderr.write(build.stderr);
    console.error("The build failed: its output is above.");
    process.exit(build.status ?? 1);
  }
  console.log(`Built in ${Math.round((performance.now() - started) / 1000)} s.`);
}

async function startCatcher(port: number): Promise<MailCatcher | undefined> {
  if (process.env.SMTP_URL) return undefined;
  let page = "";
  const catcher = await startMailCatcher({
    smtpPort: 0,
    webPort: 0,
    avoid: [port],
    onMail: (mail) => console.log(`mail to ${mail.to}: "${mail.subject}" (read it on ${page})`),
  });
  page = catcher.webUrl;
  console.log(`Mail catcher: the mail OptiGate sends is on ${page} (linked from /admin/outbox)`);
  return catcher;
}

async function main(): Promise<void> {
  buildUnlessCurrent();
  const catcher = await startCatcher(Number(process.env.PORT || 3000));
  // A process group of its own: a Ctrl-C reaches the server once, through the demo, not also from the terminal.
  const server = spawn(process.execPath, [COMPILED_SERVER], {
    env: {
      ...process.env,
      DEMO_DATA: "1",
      NEXT_TELEMETRY_DISABLED: "1",
      LOG_FORMAT: process.env.LOG_FORMAT || "pretty",
      ...(catcher ? { SMTP_URL: catcher.smtpUrl, MAIL_CATCHER_URL: catcher.webUrl } : {}),
    },
    stdio: "inherit",
    detached: true,
  });
  let firstSignalAt: number | undefined;
  const relay = (signal: NodeJS.Signals) => {
    if (firstSignalAt !== undefined && Date.now() - firstSignalAt < SAME_SIGNAL_MS) return;
    firstSignalAt ??= Date.now();
    server.kill(signal);
  };
  process.on("SIGINT", relay);
  process.on("SIGTERM", relay);
  // A closed terminal stops the server as Ctrl-C does.
  process.on("SIGHUP", () => relay("SIGTERM"));
  // Should the demo itself fail, the server, in its group of its own, is not left running.
  process.on("exit", () => server.kill("SIGTERM"));
  server.on("exit", (code) => {
    void (catcher?.close() ?? Promise.resolve()).finally(() => process.exit(code ?? 1));
  });
}

main().catch((error: Error) => {
  console.error(`the demo cannot start: ${error.message}`);
  process.exit(1);
});
