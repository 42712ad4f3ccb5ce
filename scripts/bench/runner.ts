/**
 * What every part of the bench shares: servers started on the server core (CPU 0), autocannon in this process on the
 * other core, and the measurements of the run. Settings: BENCH_SECONDS (5), BENCH_CONNECTIONS (16).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import autocannon from "autocannon";
import { databaseEnvironment, type DatabaseTarget } from "@/lib/config/database-url";
import { COMPILED_SERVER } from "../compiled-server";

/**
 * BENCH_SMOKE=1: every part once, at a small scale and for a second a scenario, so that CI sees each part run (its
 * figures mean nothing then).
 */
export const SMOKE = process.env.BENCH_SMOKE === "1";
/** `full` in a real run, `smoke` in a smoke run. */
export const sized = (full: number, smoke: number) => (SMOKE ? smoke : full);

export const SECONDS = Number(process.env.BENCH_SECONDS ?? sized(5, 1));
export const WARMUP_SECONDS = sized(2, 0);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
export const SECRET_KEY = "bench-secret-key-0123456789-abcdefghijklmnop";
/**
 * The heap limits the Dockerfile sets for a container of 512 MiB: OptiGate runs with them here, so that its memory
 * and its speed are measured as the image runs.
 */
export const CONTAINER_NODE_OPTIONS = (() => {
  const options = /^ENV NODE_OPTIONS="([^"]+)"$/m.exec(readFileSync("Dockerfile", "utf8"))?.[1];
  if (!options) throw new Error("the Dockerfile sets no NODE_OPTIONS for the bench to run OptiGate with");
  return options;
})();
export const haveTaskset = existsSync("/usr/bin/taskset") && Number(execFileSync("nproc").toString()) >= 2;
export const SERVER_CPU = ["taskset", "-c", "0"];

export interface Measurement {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

export const results: Measurement[] = [];

export const result = (name: string) => results.find((r) => r.name === name);

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Resident memory of a process in bytes (Linux). */
export function residentBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"));
  return Number(line?.replace(/\D+/g, "") ?? 0) * 1024;
}

export function onServerCore(command: string[], env: Record<string, string>, cwd?: string): ChildProcess {
  const argv = haveTaskset ? [...SERVER_CPU, ...command] : command;
  // A group of its own: `next start` runs the server in a child process, which must stop with it.
  return spawn(argv[0], argv.slice(1), {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
    detached: true,
  });
}

export async function waitFor(url: string): Promise<void> {
  for (let attempt = 0; attempt < 120; attempt++) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not come up`);
}

/** SIGTERM to the server's process group; SIGKILL when it has not exited 5 s later (`next start` may wait on sockets). */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  process.kill(-child.pid!, "SIGTERM");
  const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
}

export type Load = {
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
  nextBody?: () => string;
  /** headers made anew for each request (a DPoP proof) */
  nextHeaders?: () => Record<string, string>;
  /** the status every answer must have (a 2xx when not given) */
  expectStatus?: number;
  /** connections at once (BENCH_CONNECTIONS when not given): 1 measures how long one answer takes */
  connections?: number;
};

async function load(baseUrl: string, spec: Load, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: `${baseUrl}${spec.path}`,
    connections: spec.connections ?? CONNECTIONS,
    duration: seconds,
    method: spec.method,
    headers: { "content-type": "application/x-www-form-urlencoded", ...spec.headers },
    body: spec.body,
    requests:
      spec.nextBody || spec.nextHeaders
        ? [
            {
              setupRequest: (request) => ({
                ...request,
                ...(spec.nextBody ? { body: spec.nextBody() } : {}),
                ...(spec.nextHeaders ? { headers: { ...request.headers, ...spec.nextHeaders() } } : {}),
              }),
            },
          ]
        : undefined,
  });
}

function unexpectedAnswers(outcome: autocannon.Result, expected: number | undefined): number {
  if (expected === undefined) return outcome.non2xx;
  const counts = Object.entries(outcome.statusCodeStats ?? {});
  return counts.reduce((sum, [status, { count }]) => sum + (Number(status) === expected ? 0 : (count ?? 0)), 0);
}

/** Keeps a measurement of the run and prints its line. */
export function recordMeasurement(measurement: Measurement): Measurement {
  results.push(measurement);
  console.log(
    `  ${measurement.name.padEnd(56)} ${String(measurement.rps).padStart(6)} req/s  p50 ${measurement.p50} ms  p99 ${measurement.p99} ms  errors ${measurement.errors}`,
  );
  return measurement;
}

export async function measure(name: string, baseUrl: string, spec: Load): Promise<Measurement> {
  if (WARMUP_SECONDS > 0) await load(baseUrl, spec, WARMUP_SECONDS);
  const outcome = await load(baseUrl, spec, SECONDS);
  return recordMeasurement({
    name,
    rps: Math.round(outcome.requests.average),
    p50: outcome.latency.p50,
    p99: outcome.latency.p99,
    errors: outcome.errors + outcome.timeouts + unexpectedAnswers(outcome, spec.expectStatus),
  });
}

export type Measure = typeof measure;

/**
 * `command` serving OptiGate on a free port of the server core, with the database and access token algorithm given
 * (and `env`, such as an OTLP endpoint).
 */
export async function startServer(
  command: string[],
  target: DatabaseTarget,
  alg: "ES256" | "RS256",
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; baseUrl: string; publicUrl: string }> {
  const port = await freePort();
  const child = onServerCore(
    command.map((part) => part.replace("$PORT", String(port))),
    {
      PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
      ...databaseEnvironment(target),
      SECRET_KEY,
      TOKEN_SIGNING_ALG: alg,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      NODE_OPTIONS: CONTAINER_NODE_OPTIONS,
      ...env,
    },
  );
  // Its log (a JSON line per request) is read and dropped, as a log collector would take it: left unread, a full
  // pipe would block the server's writes.
  child.stdout!.resume();
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor(`${baseUrl}/.well-known/openid-configuration`);
  return { child, baseUrl, publicUrl: `http://localhost:${port}` };
}

export const OPTIGATE_SERVER = [process.execPath, COMPILED_SERVER];
