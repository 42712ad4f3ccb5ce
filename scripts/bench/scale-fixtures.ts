/**
 * The data of a grown deployment, added to a bench database: 1,000 clients, 100,000 users and 1,000,000 live refresh
 * tokens spread over them; then, for the purge, a backlog of expired ones. Written with one INSERT … SELECT per table
 * from a generated series, so that seeding takes seconds rather than a million round trips.
 */
import { execFileSync } from "node:child_process";
import type { DatabaseTarget } from "@/lib/config/database-url";
import { closeDb, createPrismaClient } from "@/lib/db/prisma";
import { sized } from "./runner";

export const SCALE = {
  clients: sized(1_000, 10),
  users: sized(100_000, 100),
  refreshTokens: sized(1_000_000, 1_000),
  expiredBacklog: sized(100_000, 100),
};

function series(provider: DatabaseTarget["provider"], count: number): { with: string; from: string } {
  return provider === "sqlite"
    ? { with: `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})`, from: "n" }
    : { with: "", from: `generate_series(1, ${count}) AS n(i)` };
}

/** Timestamps as each database's driver writes them (lib/db/dialect.ts). */
function timestamp(provider: DatabaseTarget["provider"], date: Date): string {
  return provider === "sqlite"
    ? `'${date.toISOString().replace("Z", "+00:00")}'`
    : `'${date.toISOString()}'::timestamp`;
}

const REFRESH_TOKEN_COLUMNS = [
  "id",
  "token_hash",
  "family_id",
  "client_id",
  "user_id",
  "scopes",
  "auth_time",
  "created_at",
  "expires_at",
];

/** Refresh token rows `i` of a series: ids, hashes and families from the prefixes, spread over the bench's clients and users. */
function refreshTokenValues(
  prefixes: { id: string; hash: string; family: string },
  created: string,
  expires: string,
): string[] {
  return [
    `'${prefixes.id}' || i`,
    `'${prefixes.hash}' || i`,
    `'${prefixes.family}' || i`,
    `'bench-client-' || (i % ${SCALE.clients} + 1)`,
    `'bench-user-' || (i % ${SCALE.users} + 1)`,
    `'["openid","offline_access"]'`,
    created,
    created,
    expires,
  ];
}

type Insert = (count: number, table: string, columns: string[], values: string[]) => Promise<void>;

/** 1,000 clients, 100,000 users of `companyId` and 1,000,000 live refresh tokens. */
async function insertGrown(
  insert: Insert,
  companyId: string,
  created: string,
  future: string,
  yes: string,
): Promise<void> {
  await insert(
    SCALE.clients,
    "clients",
    [
      "id",
      "kind",
      "grant_types",
      "response_types",
      "redirect_uris",
      "allowed_scopes",
      "token_endpoint_auth_method",
      "offline_access",
      "created_at",
      "updated_at",
    ],
    [
      "'bench-client-' || i",
      "'web'",
      `'["authorization_code","refresh_token"]'`,
      `'["code"]'`,
      `'["https://app.example/cb"]'`,
      `'["openid","offline_access"]'`,
      "'client_secret_basic'",
      yes,
      created,
      created,
    ],
  );
  await insert(
    SCALE.users,
    "users",
    ["id", "company_id", "email", "given_name", "family_name", "password_hash", "created_at", "updated_at"],
    [
      "'bench-user-' || i",
      `'${companyId}'`,
      "'bench-user-' || i || '@bench.test'",
      "'Bench'",
      "'User'",
      "'none'",
      created,
      created,
    ],
  );
  await insert(
    SCALE.refreshTokens,
    "refresh_tokens",
    REFRESH_TOKEN_COLUMNS,
    refreshTokenValues({ id: "bench-rt-", hash: "bench-hash-", family: "bench-family-" }, created, future),
  );
}

export async function seedScale(target: DatabaseTarget, what: "grown" | "expired backlog" = "grown"): Promise<number> {
  const db = createPrismaClient(target);
  const started = performance.now();
  try {
    const { provider } = target;
    const company = await db.company.findFirstOrThrow({ where: { kind: "eye_care_professional" } });
    const now = new Date();
    const created = timestamp(provider, now);
    const future = timestamp(provider, new Date(now.getTime() + 200 * 86_400_000));
    const past = timestamp(provider, new Date(now.getTime() - 2 * 86_400_000));
    const yes = provider === "sqlite" ? "1" : "true";
    const insert: Insert = async (count, table, columns, values) => {
      const { with: prefix, from } = series(provider, count);
      await db.$executeRawUnsafe(
        `${prefix} INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) SELECT ${values.join(", ")} FROM ${from}`,
      );
    };
    if (what === "expired backlog") {
      const prefixes = { id: "bench-expired-", hash: "bench-expired-hash-", family: "bench-expired-family-" };
      await insert(
        SCALE.expiredBacklog,
        "refresh_tokens",
        REFRESH_TOKEN_COLUMNS,
        refreshTokenValues(prefixes, created, past),
      );
      return (performance.now() - started) / 1000;
    }
    await insertGrown(insert, company.id, created, future, yes);
    // What a running deployment's database looks like: statistics gathered, the write-ahead log checkpointed, and
    // the hundreds of megabytes just written on disk, not still being flushed by the kernel while the load runs.
    if (provider === "postgresql") await db.$executeRawUnsafe("ANALYZE").then(() => db.$executeRawUnsafe("CHECKPOINT"));
    else await db.$queryRawUnsafe("PRAGMA wal_checkpoint(TRUNCATE)");
    execFileSync("sync");
    return (performance.now() - started) / 1000;
  } finally {
    await closeDb(db);
  }
}
