/**
 * The service's configuration, read from the environment once. Every bad or missing value is reported
 * as one ConfigError whose message names the variable, so that start-up can stop with a single clear line.
 */
import { ConfigError } from "@/lib/config/config-error";
import { acceptOlderSecretKeys } from "@/lib/crypto/secret-box";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isDatabasePooler, parseDatabaseUrl, type DatabaseTarget } from "@/lib/config/database-url";
import { readMailConfig, type MailConfig } from "@/lib/config/mail-config";
import { readAllowedRanges, type AddressRanges } from "@/lib/config/address-ranges";
import { readAuditRetentionDays } from "@/lib/config/whole-number-settings";
import { readSignInDefenses, type SignInDefenseSettings } from "@/lib/config/sign-in-defenses";
import { checkLogFormat } from "@/lib/config/log-format";

export { ConfigError };

export interface Config extends SignInDefenseSettings {
  port: number;
  /** The issuer: an absolute URL without a trailing slash. */
  publicUrl: string;
  /** The base URL of the platform API (API_URL, default PUBLIC_URL). */
  apiUrl: string;
  database: DatabaseTarget;
  demoData: boolean;
  /** Protects cookies, CSRF tokens and private keys at rest: the newest key, which seals everything new. */
  secretKey: string;
  /** Older keys (SECRET_KEYS after the first) whose sealed values still open, until `keys reseal` and their removal. */
  olderSecretKeys: string[];
  /** Where the secret key came from: the environment, or generated for local SQLite use. */
  secretKeySource: "environment" | "generated";
  apiScopePrefix: string;
  /** How many reverse proxies in front of OptiGate append to X-Forwarded-For (their entries are skipped). */
  trustedProxies: number;
  /** Bearer token that opens /metrics; unset: no metrics are served. */
  metricsToken: string | null;
  /** Bearer token of the scheduled calls to /api/cron/* (Vercel Cron's CRON_SECRET); unset: they are refused. */
  cronSecret: string | null;
  /** Whether `npm start` applies pending migrations before serving (MIGRATE_ON_START, default 1). */
  migrateOnStart: boolean;
  /** Algorithm of access tokens. */
  tokenSigningAlg: "RS256" | "ES256";
  /** Algorithm of ID tokens for clients whose metadata names none (id_token_signed_response_alg); RS256 by default. */
  idTokenSigningAlg: "RS256" | "ES256" | "PS256";
  mail: MailConfig;
  /** Days audit events are kept before the purge removes them (AUDIT_RETENTION_DAYS, default 400). */
  auditRetentionDays: number;
  /** REQUIRE_PAR=1: every authorization request must come by reference to a pushed request (RFC 9126 §5). */
  requirePar: boolean;
  /** REQUIRE_DPOP_NONCE=1: DPoP proofs must carry a nonce the server handed out (RFC 9449 §8). */
  requireDpopNonce: boolean;
  /** OUTBOUND_ALLOW: private or loopback ranges OptiGate may connect to (providers, operators' key sets, logout). */
  outboundAllow: AddressRanges;
  /** CATALOG_PULL_ALLOW: the same for catalog files suppliers name (an internal file server); OUTBOUND_ALLOW is not. */
  catalogPullAllow: AddressRanges;
  /** True for `next start` / `npm start` without demo data: the settings of a real deployment apply. */
  production: boolean;
}

const SECRET_KEY_MIN_LENGTH = 32;
const DEFAULT_DATABASE_URL = "file:./data/optigate.db";

type Env = Record<string, string | undefined>;

function readPort(env: Env): number {
  const raw = env.PORT?.trim();
  if (!raw) return 3000;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 1 || port > 65535) {
    throw new ConfigError("PORT", `must be a whole number from 1 to 65535 (got "${raw}")`);
  }
  return port;
}

/** An absolute http(s) URL without a trailing slash, credentials, query or fragment. */
function readBaseUrl(name: "PUBLIC_URL" | "API_URL", raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be an absolute http or https URL (got "${raw}")`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(name, `must use http or https (got "${raw}")`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new ConfigError(name, `must not contain credentials, a query or a fragment (got "${raw}")`);
  }
  if (raw.endsWith("/")) {
    throw new ConfigError(
      name,
      name === "PUBLIC_URL"
        ? `must not end with "/": it is the issuer, compared exactly (got "${raw}")`
        : `must not end with "/" (got "${raw}")`,
    );
  }
  return raw;
}

function readPublicUrl(env: Env, port: number): string {
  const raw = env.PUBLIC_URL?.trim();
  return raw ? readBaseUrl("PUBLIC_URL", raw) : `http://localhost:${port}`;
}

/** The base of the platform API's own links (Location, the OpenAPI servers); PUBLIC_URL unless it is served elsewhere. */
function readApiUrl(env: Env, publicUrl: string): string {
  const raw = env.API_URL?.trim();
  return raw ? readBaseUrl("API_URL", raw) : publicUrl;
}

function readDatabase(env: Env): DatabaseTarget {
  const raw = env.DATABASE_URL?.trim() || DEFAULT_DATABASE_URL;
  let target: DatabaseTarget;
  try {
    target = parseDatabaseUrl(raw);
  } catch (error) {
    throw new ConfigError("DATABASE_URL", (error as Error).message);
  }
  const poolMax = env.DATABASE_POOL_MAX?.trim();
  const pooler = env.DATABASE_POOLER?.trim() || undefined;
  if (poolMax && (!/^\d{1,3}$/.test(poolMax) || Number(poolMax) < 1 || Number(poolMax) > 100))
    throw new ConfigError("DATABASE_POOL_MAX", `must be a whole number from 1 to 100 (got "${poolMax}")`);
  if (pooler !== undefined && !isDatabasePooler(pooler))
    throw new ConfigError("DATABASE_POOLER", `must be session or transaction, or unset (got "${pooler}")`);
  if (target.provider !== "postgresql") {
    if (poolMax) throw new ConfigError("DATABASE_POOL_MAX", "applies to PostgreSQL only");
    if (pooler) throw new ConfigError("DATABASE_POOLER", "applies to PostgreSQL only");
    return target;
  }
  return { ...target, ...(poolMax ? { poolMax: Number(poolMax) } : {}), ...(pooler ? { pooler } : {}) };
}

/** A switch: 1 on; 0, empty or unset off. */
function readSwitch(env: Env, name: "DEMO_DATA" | "REQUIRE_PAR" | "REQUIRE_DPOP_NONCE"): boolean {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "" || raw === "0") return false;
  if (raw === "1") return true;
  throw new ConfigError(name, `must be 1 or unset (got "${raw}")`);
}

function readApiScopePrefix(env: Env): string {
  const raw = env.API_SCOPE_PREFIX?.trim();
  if (!raw) return "platform";
  if (!/^[a-z][a-z0-9-]{0,31}$/.test(raw)) {
    throw new ConfigError(
      "API_SCOPE_PREFIX",
      `must be lower-case letters, digits or "-", starting with a letter (got "${raw}")`,
    );
  }
  return raw;
}

function readTrustedProxies(env: Env): number {
  const raw = env.TRUSTED_PROXIES?.trim();
  if (!raw) return 0;
  if (!/^\d{1,2}$/.test(raw))
    throw new ConfigError("TRUSTED_PROXIES", `must be a whole number of proxies, such as 0 or 1 (got "${raw}")`);
  return Number(raw);
}

/** A secret callers present as a bearer token (METRICS_TOKEN, CRON_SECRET); unset: what it opens stays shut. */
function readBearerSecret(env: Env, name: "METRICS_TOKEN" | "CRON_SECRET"): string | null {
  const raw = env[name];
  if (raw === undefined || raw === "") return null;
  if (raw.length < 16 || !/^[\x21-\x7e]+$/.test(raw))
    throw new ConfigError(name, "must be at least 16 printable characters without spaces");
  return raw;
}

/** MIGRATE_ON_START=0: a release step migrates (docs/operations.md), the server only reports what is pending. */
function readMigrateOnStart(env: Env): boolean {
  const raw = env.MIGRATE_ON_START?.trim();
  if (raw === undefined || raw === "" || raw === "1") return true;
  if (raw === "0") return false;
  throw new ConfigError("MIGRATE_ON_START", `must be 0 or 1 (got "${raw}")`);
}

/** Vercel's instances have no lasting disk and each would have its own file: SQLite there loses everything. */
function refuseSqliteOnVercel(env: Env, database: DatabaseTarget): void {
  if (env.VERCEL === "1" && database.provider === "sqlite")
    throw new ConfigError(
      "DATABASE_URL",
      "is an SQLite file, which cannot work on Vercel (no lasting disk, a separate file per instance): set a PostgreSQL URL",
    );
}

function readAlgorithm<const Allowed extends string>(env: Env, name: string, allowed: readonly Allowed[]): Allowed {
  const raw = env[name]?.trim();
  if (!raw) return allowed[0];
  if (!allowed.includes(raw as Allowed))
    throw new ConfigError(name, `must be ${allowed.slice(0, -1).join(", ")} or ${allowed.at(-1)} (got "${raw}")`);
  return raw as Allowed;
}

/** The generated key lives next to the SQLite file, readable by its owner only. */
function loadOrCreateLocalSecretKey(databaseFile: string): string {
  const file = path.join(path.dirname(path.resolve(databaseFile)), "secret-key");
  if (existsSync(file)) {
    const stored = readFileSync(file, "utf8").trim();
    if (stored.length >= SECRET_KEY_MIN_LENGTH) return stored;
    throw new ConfigError("SECRET_KEY", `is not set and the stored key in ${file} is too short`);
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const key = randomBytes(32).toString("base64url");
  writeFileSync(file, `${key}\n`, { mode: 0o600, flag: "wx" });
  return key;
}

/** SECRET_KEYS: the newest first, then older ones whose sealed values still open (docs/operations.md). */
function readSecretKeyList(env: Env): string[] | undefined {
  const variable = env.SECRET_KEYS !== undefined && env.SECRET_KEYS !== "" ? "SECRET_KEYS" : "SECRET_KEY";
  const raw = env[variable];
  if (raw === undefined || raw === "") return undefined;
  if (variable === "SECRET_KEYS" && env.SECRET_KEY)
    throw new ConfigError("SECRET_KEYS", "is set together with SECRET_KEY: list every key in SECRET_KEYS alone");
  const keys = variable === "SECRET_KEYS" ? raw.split(",").map((key) => key.trim()) : [raw];
  for (const [index, key] of keys.entries())
    if (key.length < SECRET_KEY_MIN_LENGTH)
      throw new ConfigError(
        variable,
        `${keys.length > 1 ? `key ${index + 1} ` : ""}must be at least ${SECRET_KEY_MIN_LENGTH} characters long (got ${key.length})`,
      );
  return keys;
}

function readSecretKey(
  env: Env,
  database: DatabaseTarget,
  production: boolean,
): Pick<Config, "secretKey" | "olderSecretKeys" | "secretKeySource"> {
  const keys = readSecretKeyList(env);
  if (keys) {
    const [secretKey, ...olderSecretKeys] = keys;
    acceptOlderSecretKeys(secretKey, olderSecretKeys);
    return { secretKey, olderSecretKeys, secretKeySource: "environment" };
  }
  if (production) {
    throw new ConfigError("SECRET_KEY", "is required in production (at least 32 random characters)");
  }
  if (database.provider !== "sqlite") {
    throw new ConfigError(
      "SECRET_KEY",
      "is required with PostgreSQL (it is generated only for the embedded SQLite set-up)",
    );
  }
  const secretKey = loadOrCreateLocalSecretKey(database.filename);
  return { secretKey, olderSecretKeys: [], secretKeySource: "generated" };
}

/** Reads and checks the configuration from `env`; throws ConfigError on the first bad value. */
export function loadConfig(env: Env = process.env): Config {
  checkLogFormat(env);
  const port = readPort(env);
  const publicUrl = readPublicUrl(env, port);
  const apiUrl = readApiUrl(env, publicUrl);
  const database = readDatabase(env);
  refuseSqliteOnVercel(env, database);
  const demoData = readSwitch(env, "DEMO_DATA");
  const tokenSigningAlg = readAlgorithm(env, "TOKEN_SIGNING_ALG", ["RS256", "ES256"]);
  const idTokenSigningAlg = readAlgorithm(env, "ID_TOKEN_SIGNING_ALG", ["RS256", "ES256", "PS256"]);
  // The demo runs the production build too; it is the one production-mode run allowed a generated key.
  const production = env.NODE_ENV === "production" && !demoData;
  return {
    port,
    publicUrl,
    apiUrl,
    database,
    demoData,
    apiScopePrefix: readApiScopePrefix(env),
    tokenSigningAlg,
    idTokenSigningAlg,
    trustedProxies: readTrustedProxies(env),
    metricsToken: readBearerSecret(env, "METRICS_TOKEN"),
    cronSecret: readBearerSecret(env, "CRON_SECRET"),
    migrateOnStart: readMigrateOnStart(env),
    production,
    requirePar: readSwitch(env, "REQUIRE_PAR"),
    requireDpopNonce: readSwitch(env, "REQUIRE_DPOP_NONCE"),
    outboundAllow: readAllowedRanges(env, "OUTBOUND_ALLOW"),
    catalogPullAllow: readAllowedRanges(env, "CATALOG_PULL_ALLOW"),
    mail: readMailConfig(env, publicUrl),
    ...readSignInDefenses(env, production),
    auditRetentionDays: readAuditRetentionDays(env),
    ...readSecretKey(env, database, production),
  };
}

let current: Config | undefined;

/** The process-wide configuration, read on first use. */
export function getConfig(): Config {
  current ??= loadConfig();
  return current;
}
