/**
 * Registered clients (`clients` and their secrets) as the protocol reads them: one approved client with the hashes of
 * its usable secrets, the origins browser clients registered for CORS, the logout URIs of the clients a session signed
 * in to, and when a secret was last used. Lists and language maps are stored as JSON text; clientRowData and
 * registeredClientFromRow convert both ways.
 *
 * Clients and the CORS origins are cached per process for a few seconds: changes made in this process (admin pages)
 * are seen at once through forgetClient(), changes made by the CLI in another process within CLIENT_CACHE_SECONDS.
 */
import { CLIENT_CACHE_SECONDS, CORS_CACHE_SECONDS } from "@/lib/config/policy";
import { processCache } from "@/lib/observability/process-cache";
import type { Db } from "@/lib/db/prisma";
import type { Client } from "@/lib/db/rows";
import type {
  ClientKind,
  ClientRegistration,
  IdTokenSigningAlgorithm,
  RefreshTokenPolicy,
  ClientLogoutUris,
  ClientWithSecrets,
  RegisteredClient,
  TokenEndpointAuthMethod,
} from "@/lib/store/models/client";
import { sandboxView } from "@/lib/store/models/sandbox-client";

export interface ClientStore {
  /**
   * An approved client with its usable secrets, a pending one as its sandbox while its vendor allows that, or null
   * (unknown, rejected, pending without a sandbox); cached briefly.
   */
  find(clientId: string, now?: number): Promise<ClientWithSecrets | null>;
  /** The origins every approved browser client (or one in its vendor's sandbox) registered, together; cached briefly. */
  corsOrigins(now?: number): Promise<Set<string>>;
  /** Those of the clients that registered a front- or back-channel logout URI; only approved clients are told. */
  logoutUris(clientIds: string[]): Promise<ClientLogoutUris[]>;
  /** Records that the secret of this hash was used now, unless that was recorded within the last minute. */
  recordSecretUse(secretHash: string, now: Date): Promise<void>;
}

export function clientRowData(registration: ClientRegistration) {
  return {
    kind: registration.kind,
    names: JSON.stringify(registration.names),
    descriptions: JSON.stringify(registration.descriptions),
    grantTypes: JSON.stringify(registration.grantTypes),
    responseTypes: JSON.stringify(registration.responseTypes),
    redirectUris: JSON.stringify(registration.redirectUris),
    corsOrigins: JSON.stringify(registration.corsOrigins),
    postLogoutRedirectUris: JSON.stringify(registration.postLogoutRedirectUris),
    allowedScopes: JSON.stringify(registration.allowedScopes),
    allowedResources: JSON.stringify(registration.allowedResources),
    tokenEndpointAuthMethod: registration.tokenEndpointAuthMethod,
    offlineAccess: registration.offlineAccess,
    refreshTokenPolicy: registration.refreshTokenPolicy,
    frontchannelLogoutUri: registration.frontchannelLogoutUri,
    backchannelLogoutUri: registration.backchannelLogoutUri,
    resourceServer: registration.resourceServer,
    companyId: registration.companyId,
    jwks: registration.jwks ? JSON.stringify(registration.jwks) : null,
    jwksUri: registration.jwksUri,
    idTokenSignedResponseAlg: registration.idTokenSignedResponseAlg,
    idTokenClaims: registration.idTokenClaims,
    dpopBoundAccessTokens: registration.dpopBoundAccessTokens,
    requirePushedAuthorizationRequests: registration.requirePushedAuthorizationRequests,
  };
}

export function registeredClientFromRow(row: Client): RegisteredClient {
  return {
    id: row.id,
    kind: row.kind as ClientKind,
    names: JSON.parse(row.names),
    descriptions: JSON.parse(row.descriptions),
    grantTypes: JSON.parse(row.grantTypes),
    responseTypes: JSON.parse(row.responseTypes),
    redirectUris: JSON.parse(row.redirectUris),
    corsOrigins: JSON.parse(row.corsOrigins),
    postLogoutRedirectUris: JSON.parse(row.postLogoutRedirectUris),
    allowedScopes: JSON.parse(row.allowedScopes),
    allowedResources: JSON.parse(row.allowedResources),
    tokenEndpointAuthMethod: row.tokenEndpointAuthMethod as TokenEndpointAuthMethod,
    offlineAccess: row.offlineAccess,
    refreshTokenPolicy: row.refreshTokenPolicy as RefreshTokenPolicy,
    frontchannelLogoutUri: row.frontchannelLogoutUri,
    backchannelLogoutUri: row.backchannelLogoutUri,
    resourceServer: row.resourceServer,
    companyId: row.companyId,
    jwks: row.jwks ? JSON.parse(row.jwks) : null,
    jwksUri: row.jwksUri,
    idTokenSignedResponseAlg: row.idTokenSignedResponseAlg as IdTokenSigningAlgorithm | null,
    idTokenClaims: row.idTokenClaims,
    dpopBoundAccessTokens: row.dpopBoundAccessTokens,
    requirePushedAuthorizationRequests: row.requirePushedAuthorizationRequests,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

const cache = processCache(
  "clients",
  () => new Map<string, { loadedAt: number; client: Promise<ClientWithSecrets | null> }>(),
);

const corsCache = processCache("corsOrigins", () => ({
  entry: undefined as { loadedAt: number; origins: Promise<Set<string>> } | undefined,
}));

async function loadClient(db: Db, clientId: string): Promise<ClientWithSecrets | null> {
  const row = await db.client.findUnique({
    where: { id: clientId },
    include: { secrets: { where: { disabledAt: null }, select: { secretHash: true, expiresAt: true } } },
  });
  if (!row || (row.status !== "approved" && !(await inSandbox(db, row)))) return null;
  const client = {
    ...registeredClientFromRow(row),
    ownerCompanyId: row.ownerCompanyId,
    secrets: row.secrets.map((s) => ({ hash: s.secretHash, expiresAt: s.expiresAt })),
  };
  return row.status === "approved" ? client : sandboxView(client);
}

/** A rejected application exists for the operator only; a pending one also as its vendor's sandbox, if allowed. */
async function inSandbox(db: Db, row: Client): Promise<boolean> {
  if (row.status !== "pending" || row.ownerCompanyId === null) return false;
  const owner = await db.company.findUnique({ where: { id: row.ownerCompanyId } });
  return owner !== null && owner.active && owner.kind === "software_vendor" && owner.partnerSandbox;
}

function findClient(db: Db, clientId: string, now = Date.now()): Promise<ClientWithSecrets | null> {
  const entry = cache.get(clientId);
  if (entry && now - entry.loadedAt < CLIENT_CACHE_SECONDS * 1000) return entry.client;
  const client = loadClient(db, clientId);
  cache.set(clientId, { loadedAt: now, client });
  client.catch(() => cache.delete(clientId));
  return client;
}

export function forgetClient(clientId?: string): void {
  if (clientId === undefined) cache.clear();
  else cache.delete(clientId);
  forgetCorsOrigins();
}

/** The origins of approved browser clients, and of those waiting for approval in their vendor's sandbox. */
async function loadCorsOrigins(db: Db): Promise<Set<string>> {
  const sandboxes = await db.company.findMany({
    where: { kind: "software_vendor", active: true, partnerSandbox: true },
    select: { id: true },
  });
  const pending = { status: "pending", ownerCompanyId: { in: sandboxes.map((vendor) => vendor.id) } };
  const rows = await db.client.findMany({
    where: { kind: "browser", OR: [{ status: "approved" }, pending] },
    select: { corsOrigins: true },
  });
  return new Set(rows.flatMap((row) => JSON.parse(row.corsOrigins) as string[]));
}

function findCorsOrigins(db: Db, now = Date.now()): Promise<Set<string>> {
  if (!corsCache.entry || now - corsCache.entry.loadedAt > CORS_CACHE_SECONDS * 1000) {
    const origins = loadCorsOrigins(db);
    corsCache.entry = { loadedAt: now, origins };
    origins.catch(() => (corsCache.entry = undefined));
  }
  return corsCache.entry.origins;
}

function forgetCorsOrigins(): void {
  corsCache.entry = undefined;
}

export function prismaClientStore(db: Db): ClientStore {
  return {
    find: (clientId, now) => findClient(db, clientId, now),
    corsOrigins: (now) => findCorsOrigins(db, now),
    logoutUris: (clientIds) =>
      db.client.findMany({
        where: {
          id: { in: clientIds },
          status: "approved",
          OR: [{ frontchannelLogoutUri: { not: null } }, { backchannelLogoutUri: { not: null } }],
        },
        select: {
          id: true,
          frontchannelLogoutUri: true,
          backchannelLogoutUri: true,
          idTokenSignedResponseAlg: true,
          ownerCompanyId: true,
        },
      }),
    async recordSecretUse(secretHash, now) {
      await db.clientSecret.updateMany({
        where: { secretHash, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now.getTime() - 60_000) } }] },
        data: { lastUsedAt: now },
      });
    },
  };
}
