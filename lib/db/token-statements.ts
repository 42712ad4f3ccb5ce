/**
 * The writes on the token endpoint's hot path, each one `UPDATE ... RETURNING` statement (SQLite and PostgreSQL both
 * have it): slide a refresh token, consume an authorization code. They run on the driver under Prisma, which costs
 * microseconds where a Prisma query costs hundreds (the benchmark showed these writes as the largest cost of a
 * refresh); through Prisma when the driver is not at hand yet.
 *
 * On SQLite the statement runs synchronously on the connection Prisma uses. Prisma's adapter runs other queries on
 * that connection even inside an open interactive transaction; these statements instead wait until no transaction
 * is open, so a rollback elsewhere can never undo a consumed code. On PostgreSQL they take their own pooled
 * connection.
 */
import type Database from "better-sqlite3";
import { driverOf, type Db } from "@/lib/db/prisma";

export interface UsedRefreshToken {
  id: string;
  familyId: string;
  userId: string;
  scopes: string;
  authTime: Date;
  loginSessionId: string | null;
  consentId: string | null;
  authorizationCodeId: string | null;
}

export interface ConsumedCode {
  id: string;
  userId: string;
  consentId: string | null;
  loginSessionId: string | null;
  redirectUri: string;
  scopes: string;
  requestedScopes: string;
  nonce: string | null;
  codeChallenge: string | null;
  authTime: Date;
}

type Row = Record<string, unknown>;
type Statement = { name: string; table: string; set: string[]; where: string; returning: string[] };

const SLIDE: Statement = {
  name: "optigate_slide_refresh_token",
  table: "refresh_tokens",
  set: ["expires_at", "last_used_at"],
  where: `"token_hash" = ? AND "client_id" = ? AND "revoked_at" IS NULL AND "expires_at" > ?`,
  returning: ["id", "family_id", "user_id", "scopes", "login_session_id", "consent_id", "authorization_code_id"],
};

const CONSUME: Statement = {
  name: "optigate_consume_code",
  table: "authorization_codes",
  set: ["consumed_at"],
  where: `"code_hash" = ? AND "client_id" = ? AND "consumed_at" IS NULL AND "expires_at" > ?`,
  returning: ["id", "user_id", "consent_id", "login_session_id", "redirect_uri", "scopes", "requested_scopes", "nonce", "code_challenge"],
};

/** auth_time as text in UTC: timestamps are stored as UTC, and a text result reads the same on both databases. */
const AUTH_TIME = { sqlite: `"auth_time"`, postgresql: `to_char("auth_time", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` };

function sql(statement: Statement, provider: "sqlite" | "postgresql"): string {
  const text = `UPDATE "${statement.table}" SET ${statement.set.map((column) => `"${column}" = ?`).join(", ")} WHERE ${statement.where}
    RETURNING ${statement.returning.map((column) => `"${column}"`).join(", ")}, ${AUTH_TIME[provider]} AS "auth_time"`;
  let index = 0;
  return provider === "sqlite" ? text : text.replace(/\?/g, () => `$${++index}`);
}

/** The stored form of a timestamp: SQLite keeps the adapter's ISO text, PostgreSQL ignores the zone of UTC input. */
const stamp = (date: Date, provider: "sqlite" | "postgresql") => (provider === "sqlite" ? date.toISOString().replace("Z", "+00:00") : date.toISOString());

const preparedStatements = new WeakMap<Database.Database, Map<Statement, Database.Statement>>();

async function untilNoTransaction(database: Database.Database): Promise<void> {
  while (database.inTransaction) await new Promise((resolve) => setImmediate(resolve));
}

async function runOnDriver(db: Db, statement: Statement, values: (string | Date)[]): Promise<Row | undefined | null> {
  const driver = driverOf(db);
  if (driver?.provider === "postgresql") {
    // Named: each pooled connection prepares it once.
    const result = await driver.pool.query({ name: statement.name, text: sql(statement, "postgresql"), values: values.map((v) => (v instanceof Date ? stamp(v, "postgresql") : v)) });
    return result.rows[0];
  }
  const database = driver?.database();
  if (!database) return null;
  await untilNoTransaction(database);
  let statements = preparedStatements.get(database);
  if (!statements) preparedStatements.set(database, (statements = new Map()));
  let prepared = statements.get(statement);
  if (!prepared) statements.set(statement, (prepared = database.prepare(sql(statement, "sqlite"))));
  return prepared.get(...values.map((v) => (v instanceof Date ? stamp(v, "sqlite") : v))) as Row | undefined;
}

/** Runs the statement; `null` from the driver means it is not connected yet, so Prisma runs it. */
async function run(db: Db, statement: Statement, values: (string | Date)[]): Promise<Row | undefined> {
  const row = await runOnDriver(db, statement, values);
  if (row !== null) return row;
  const rows = await db.$queryRawUnsafe<Row[]>(sql(statement, "sqlite"), ...values);
  return rows[0];
}

const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
const date = (value: unknown) => (value instanceof Date ? value : new Date(String(value)));

/** Moves a usable refresh token's expiry; returns it, or undefined when it is unknown, another client's or unusable. */
export async function slideRefreshToken(db: Db, tokenHash: string, clientId: string, now: Date, expiresAt: Date): Promise<UsedRefreshToken | undefined> {
  const row = await run(db, SLIDE, [expiresAt, now, tokenHash, clientId, now]);
  if (!row) return undefined;
  return {
    id: String(row.id),
    familyId: String(row.family_id),
    userId: String(row.user_id),
    scopes: String(row.scopes),
    authTime: date(row.auth_time),
    loginSessionId: text(row.login_session_id),
    consentId: text(row.consent_id),
    authorizationCodeId: text(row.authorization_code_id),
  };
}

/** Marks an unexpired, unused code of the client consumed; returns it, or undefined. */
export async function consumeAuthorizationCode(db: Db, codeHash: string, clientId: string, now: Date): Promise<ConsumedCode | undefined> {
  const row = await run(db, CONSUME, [now, codeHash, clientId, now]);
  if (!row) return undefined;
  return {
    id: String(row.id),
    userId: String(row.user_id),
    consentId: text(row.consent_id),
    loginSessionId: text(row.login_session_id),
    redirectUri: String(row.redirect_uri),
    scopes: String(row.scopes),
    requestedScopes: String(row.requested_scopes),
    nonce: text(row.nonce),
    codeChallenge: text(row.code_challenge),
    authTime: date(row.auth_time),
  };
}
