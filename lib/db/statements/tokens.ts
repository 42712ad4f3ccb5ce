/**
 * The writes on the token endpoint's hot path, each one `UPDATE ... RETURNING` statement: slide a refresh token,
 * consume an authorization code. They run on OptiGate's own connection (lib/db/run-statement.ts), which costs
 * microseconds where a Prisma query costs hundreds (the benchmark showed these writes as the largest cost of a
 * refresh), and on SQLite in group commits.
 */
import type { DatabaseProvider } from "@/lib/config/database-url";
import { timestampText } from "@/lib/db/dialect";
import { driverOf, type Db } from "@/lib/db/prisma";
import { runStatement, sqliteGroupCommit, type NamedStatement } from "@/lib/db/run-statement";

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

/** auth_time comes back as ISO text, which reads the same on both databases. */
function updateReturning(name: string, table: string, set: string[], where: string, returning: string[]): NamedStatement {
  return {
    name,
    sql: (provider: DatabaseProvider) => `UPDATE "${table}" SET ${set.map((column) => `"${column}" = ?`).join(", ")} WHERE ${where}
    RETURNING ${returning.map((column) => `"${column}"`).join(", ")}, ${timestampText("auth_time", provider)} AS "auth_time"`,
  };
}

export const SLIDE_REFRESH_TOKEN = updateReturning(
  "optigate_slide_refresh_token",
  "refresh_tokens",
  ["expires_at", "last_used_at"],
  `"token_hash" = ? AND "client_id" = ? AND "revoked_at" IS NULL AND "expires_at" > ?`,
  ["id", "family_id", "user_id", "scopes", "login_session_id", "consent_id", "authorization_code_id"],
);

export const CONSUME_CODE = updateReturning(
  "optigate_consume_code",
  "authorization_codes",
  ["consumed_at"],
  `"code_hash" = ? AND "client_id" = ? AND "consumed_at" IS NULL AND "expires_at" > ?`,
  ["id", "user_id", "consent_id", "login_session_id", "redirect_uri", "scopes", "requested_scopes", "nonce", "code_challenge"],
);

/** The hot statements take part in SQLite's group commit: many refreshes and redemptions share one commit. */
async function run(db: Db, statement: NamedStatement, values: (string | Date)[]): Promise<Row | undefined> {
  if (driverOf(db).provider === "sqlite") return sqliteGroupCommit(db, (runNow) => runNow<Row>(statement, values)[0]);
  const rows = await runStatement<Row>(db, statement, values);
  return rows[0];
}

const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
const date = (value: unknown) => (value instanceof Date ? value : new Date(String(value)));

/** Moves a usable refresh token's expiry; returns it, or undefined when it is unknown, another client's or unusable. */
export async function slideRefreshToken(db: Db, tokenHash: string, clientId: string, now: Date, expiresAt: Date): Promise<UsedRefreshToken | undefined> {
  const row = await run(db, SLIDE_REFRESH_TOKEN, [expiresAt, now, tokenHash, clientId, now]);
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
  const row = await run(db, CONSUME_CODE, [now, codeHash, clientId, now]);
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
