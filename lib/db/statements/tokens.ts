/**
 * The writes on the token endpoint's hot path, each one conditional `UPDATE ... RETURNING`: slide a refresh token,
 * consume an authorization code. They run on OptiGate's own connection (lib/db/run-statement.ts), which costs
 * microseconds where a Prisma query costs hundreds (the benchmark showed these writes as the largest cost of a
 * refresh), and the requests of one event-loop turn share one commit (lib/db/grouped-update.ts).
 */
import type { DatabaseProvider } from "@/lib/config/database-url";
import { timestampText } from "@/lib/db/dialect";
import { groupedUpdate, runGroupedUpdate } from "@/lib/db/grouped-update";
import type { Db } from "@/lib/db/prisma";

/** The columns a slide returns, JSON as stored. */
export interface SlidTokenRow {
  id: string;
  familyId: string;
  userId: string;
  scopes: string;
  authTime: Date;
  amr: string;
  loginSessionId: string | null;
  consentId: string | null;
  authorizationCodeId: string | null;
  /** a public client's token: the thumbprint of the DPoP key it is bound to */
  dpopJkt: string | null;
  /** RFC 8707: the resources of the original grant */
  resources: string;
}

/** The columns a consumption returns, JSON as stored. */
export interface ConsumedCodeRow {
  id: string;
  userId: string;
  consentId: string | null;
  loginSessionId: string | null;
  redirectUri: string;
  scopes: string;
  requestedScopes: string;
  nonce: string | null;
  codeChallenge: string | null;
  /** dpop_jkt of the authorization request: the DPoP key the code is bound to */
  dpopJkt: string | null;
  /** RFC 8707: the resources the authorization request named */
  resources: string;
  authTime: Date;
  amr: string;
}

/** auth_time comes back as ISO text, which reads the same on both databases. */
const returning = (columns: string[]) => (provider: DatabaseProvider) =>
  `${columns.map((column) => `"${column}"`).join(", ")}, ${timestampText("auth_time", provider)} AS "auth_time"`;

export const SLIDE_REFRESH_TOKEN = groupedUpdate({
  name: "optigate_slide_refresh_token",
  table: "refresh_tokens",
  parameters: { token_hash: "text", client_id: "text", now: "timestamp(3)", expires_at: "timestamp(3)" },
  set: `"expires_at" = :expires_at, "last_used_at" = :now`,
  // A token rotated out while its client rotated stays out should the client later be switched to reuse.
  where: `"token_hash" = :token_hash AND "client_id" = :client_id AND "revoked_at" IS NULL AND "rotated_at" IS NULL AND "expires_at" > :now`,
  returning: returning([
    "id",
    "family_id",
    "user_id",
    "scopes",
    "amr",
    "login_session_id",
    "consent_id",
    "authorization_code_id",
    "dpop_jkt",
    "resources",
  ]),
});

export const CONSUME_CODE = groupedUpdate({
  name: "optigate_consume_code",
  table: "authorization_codes",
  parameters: { code_hash: "text", client_id: "text", now: "timestamp(3)" },
  set: `"consumed_at" = :now`,
  where: `"code_hash" = :code_hash AND "client_id" = :client_id AND "consumed_at" IS NULL AND "expires_at" > :now`,
  returning: returning([
    "id",
    "user_id",
    "consent_id",
    "login_session_id",
    "redirect_uri",
    "scopes",
    "requested_scopes",
    "nonce",
    "code_challenge",
    "dpop_jkt",
    "resources",
    "amr",
  ]),
});

const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
const date = (value: unknown) => (value instanceof Date ? value : new Date(String(value)));

/** Moves a usable refresh token's expiry; returns it, or undefined when it is unknown, another client's or unusable. */
export async function slideRefreshToken(
  db: Db,
  tokenHash: string,
  clientId: string,
  now: Date,
  expiresAt: Date,
): Promise<SlidTokenRow | undefined> {
  const row = await runGroupedUpdate(db, SLIDE_REFRESH_TOKEN, {
    token_hash: tokenHash,
    client_id: clientId,
    now,
    expires_at: expiresAt,
  });
  if (!row) return undefined;
  return {
    id: String(row.id),
    familyId: String(row.family_id),
    userId: String(row.user_id),
    scopes: String(row.scopes),
    authTime: date(row.auth_time),
    amr: String(row.amr),
    loginSessionId: text(row.login_session_id),
    consentId: text(row.consent_id),
    authorizationCodeId: text(row.authorization_code_id),
    dpopJkt: text(row.dpop_jkt),
    resources: String(row.resources),
  };
}

/** Marks an unexpired, unused code of the client consumed; returns it, or undefined. */
export async function consumeAuthorizationCode(
  db: Db,
  codeHash: string,
  clientId: string,
  now: Date,
): Promise<ConsumedCodeRow | undefined> {
  const row = await runGroupedUpdate(db, CONSUME_CODE, { code_hash: codeHash, client_id: clientId, now });
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
    dpopJkt: text(row.dpop_jkt),
    resources: String(row.resources),
    authTime: date(row.auth_time),
    amr: String(row.amr),
  };
}
