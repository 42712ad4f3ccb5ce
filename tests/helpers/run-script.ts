/** Runs one of the project's scripts (scripts/*.ts) as a real process, as `npm run` would. */
import { execFile } from "node:child_process";

export interface ScriptResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runScript(
  script: string,
  args: string[],
  env: Record<string, string | undefined>,
): Promise<ScriptResult> {
  const fullEnv = { ...process.env, NODE_ENV: "test", ...env } as NodeJS.ProcessEnv;
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", script, ...args], { env: fullEnv }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}
