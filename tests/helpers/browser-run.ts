/**
 * What both Playwright configurations share: a free port chosen once in the main process (the workers inherit it
 * through the environment) and Debian's Chromium, never a downloaded browser.
 */
import { execFileSync } from "node:child_process";

export function freePort(): string {
  return execFileSync(process.execPath, [
    "-e",
    "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); });",
  ])
    .toString()
    .trim();
}

export const CHROMIUM = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
};
