/**
 * The writes on the token endpoint's hot path, each one `UPDATE ... RETURNING` statement (SQLite and PostgreSQL
 * both have it): slide a refresh token, consume an authorization code. Prisma's updateManyAndReturn runs several
 * statements for the same effect; the benchmark showed these writes as the largest cost of a refresh.
 */
import type { Db } from "@/lib/db/prisma";

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
const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
/** SQLite hands back the stored ISO text, PostgreSQL a Date. */
const date = (value: unknown) => (value instanceof Date ? value : new Date(String(value)));

/** Moves a usable refresh token's expiry; returns it, or undefined when it is unknown, another client's or unusable. */
export async function slideRefreshToken(db: Db, tokenHash: string, clientId: string, now: Date, expiresAt: Date): Promise<UsedRefreshToken | undefined> {
  const [row] = await db.$queryRaw<Row[]>`
    UPDATE "refresh_tokens" SET "expires_at" = ${expiresAt}, "last_used_at" = ${now}
    WHERE "token_hash" = ${tokenHash} AND "client_id" = ${clientId} AND "revoked_at" IS NULL AND "expires_at" > ${now}
    RETURNING "id", "family_id", "user_id", "scopes", "auth_time", "login_session_id", "consent_id", "authorization_code_id"`;
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
  const [row] = await db.$queryRaw<Row[]>`
    UPDATE "authorization_codes" SET "consumed_at" = ${now}
    WHERE "code_hash" = ${codeHash} AND "client_id" = ${clientId} AND "consumed_at" IS NULL AND "expires_at" > ${now}
    RETURNING "id", "user_id", "consent_id", "login_session_id", "redirect_uri", "scopes", "requested_scopes", "nonce", "code_challenge", "auth_time"`;
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
