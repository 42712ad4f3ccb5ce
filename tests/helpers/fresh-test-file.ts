/**
 * Integration test files share their worker (vitest `isolate: false`): Next.js, Prisma and jose load once per worker
 * instead of once per file, which halves the suite's time. Each file still starts as if alone: the environment the
 * worker began with, OptiGate's process-wide caches emptied (its database clients, one per URL, are kept), and
 * OptiGate's own modules loaded afresh.
 */
import { vi } from "vitest";

const KEPT_CACHE = Symbol.for("optigate.db-clients");

const globals = globalThis as unknown as { initialEnvironment?: NodeJS.ProcessEnv } & Record<symbol, unknown>;
globals.initialEnvironment ??= { ...process.env };
for (const name of Object.keys(process.env)) if (!(name in globals.initialEnvironment)) delete process.env[name];
Object.assign(process.env, globals.initialEnvironment);
for (const key of Object.getOwnPropertySymbols(globals))
  if (key !== KEPT_CACHE && Symbol.keyFor(key)?.startsWith("optigate.")) delete globals[key];
vi.resetModules();
