/** `npm start` (scripts/serve.ts) refuses bad configuration with one line, before it touches anything. */
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runScript } from "../helpers/run-script";

const directory = mkdtempSync(path.join(tmpdir(), "optigate-startup-"));
const databaseUrl = `file:${path.join(directory, "optigate.db")}`;

describe("start-up", () => {
  it("refuses to start in production without SECRET_KEY, and creates no database", async () => {
    const result = await runScript("scripts/serve.ts", [], {
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      SECRET_KEY: "",
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      "Configuration error: SECRET_KEY is required in production (at least 32 random characters)",
    );
    expect(existsSync(path.join(directory, "optigate.db"))).toBe(false);
  });

  it.each([
    [{ PORT: "eighty" }, 'Configuration error: PORT must be a whole number from 1 to 65535 (got "eighty")'],
    [
      { PUBLIC_URL: "https://id.example.com/" },
      'Configuration error: PUBLIC_URL must not end with "/": it is the issuer, compared exactly (got "https://id.example.com/")',
    ],
    [{ DEMO_DATA: "true" }, 'Configuration error: DEMO_DATA must be 1 or unset (got "true")'],
  ])("stops with one line for %o", async (env, line) => {
    const result = await runScript("scripts/serve.ts", [], {
      DATABASE_URL: databaseUrl,
      SECRET_KEY: "s".repeat(40),
      ...env,
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(line);
  });
});
