/**
 * The operator CLI as `npm run admin` runs it, against the browser tests' server (its database, key and public URL):
 * what it printed on standard output.
 */
import { execFileSync } from "node:child_process";

export function adminCommand(baseURL: string, ...args: string[]): string {
  return String(
    execFileSync(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args], {
      env: {
        ...process.env,
        DATABASE_URL: process.env.E2E_DATABASE_URL,
        SECRET_KEY: process.env.E2E_SECRET_KEY,
        PUBLIC_URL: baseURL,
      },
      // A failing command's error line then ends the thrown error's message.
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
}
