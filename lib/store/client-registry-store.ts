/**
 * Registered clients as the operator changes them (lib/admin/client-registry.ts): registering, replacing a
 * registration, adding, expiring and disabling secrets, removing. Each change is one transaction with its audit event
 * naming the operator (`by`). Secrets are stored only as SHA-256 hashes. The registry drops the client from this
 * process's client cache (lib/store/client-store.ts, forgetClient) after each change.
 */
import { hashToken } from "@/lib/crypto/tokens";
import type { Db, DbTransaction } from "@/lib/db/prisma";
import { bindDb } from "@/lib/store/bind-db";
import type { ClientRegistration, ClientSecretInfo, RegisteredClient } from "@/lib/store/models/client";
import { recordAuditEvent } from "@/lib/store/audit-store";
import { clientRowData, registeredClientFromRow } from "@/lib/store/client-store";
import { companyExists } from "@/lib/store/company-store";
import type { AuditDetails } from "@/lib/store/models/audit-details";

/** Whether a company exists, as a registration's checks ask it inside the registration's transaction. */
type CompanyLookup = (companyId: string) => Promise<boolean>;

/** A secret to store with its value, of which only the hash is kept. */
export interface NewClientSecret {
  value: string;
  description?: string;
  expiresAt?: Date;
}

/** A stored secret: its id, and its value for the one time it is shown. */
export interface StoredClientSecret {
  secretId: string;
  value: string;
}

/** Stores a secret's hash with its audit event, inside the transaction of the change it belongs to. */
export async function insertSecret(
  tx: DbTransaction,
  clientId: string,
  secret: NewClientSecret,
  by?: string,
): Promise<StoredClientSecret> {
  const { value, description, expiresAt } = secret;
  const row = await tx.clientSecret.create({
    data: { clientId, secretHash: hashToken(value), description, expiresAt },
  });
  await recordAuditEvent(tx, { type: "client.secret_added", userId: by, clientId, details: { secretId: row.id } });
  return { secretId: row.id, value };
}

async function clientExists(db: Pick<Db, "client">, clientId: string): Promise<boolean> {
  return (await db.client.findUnique({ where: { id: clientId }, select: { id: true } })) !== null;
}

/**
 * Whether a new client may not have this id: another client has it, or a person does. A client named after a
 * person's id would otherwise look like that person to whoever reads `sub` alone (docs/security.md).
 */
export async function clientIdTaken(db: Pick<Db, "client" | "user">, clientId: string): Promise<boolean> {
  if (await clientExists(db, clientId)) return true;
  return (await db.user.findUnique({ where: { id: clientId }, select: { id: true } })) !== null;
}

/**
 * Registers a client with its audit event; null (nothing written) when the id is taken (clientIdTaken). `checkCompany` runs before
 * the insert and `firstSecret` (for clients that use secrets) after it, in the same transaction; either may refuse
 * the registration by throwing.
 */
export function insertClient(
  db: Db,
  id: string,
  registration: ClientRegistration,
  steps: { checkCompany(companyExists: CompanyLookup): Promise<void>; firstSecret?: () => NewClientSecret },
  by?: string,
): Promise<{ client: RegisteredClient; secret?: StoredClientSecret } | null> {
  return db.$transaction(async (tx) => {
    if (await clientIdTaken(tx, id)) return null;
    await steps.checkCompany((companyId) => companyExists(tx, companyId));
    const row = await tx.client.create({ data: { id, ...clientRowData(registration) } });
    await recordAuditEvent(tx, {
      type: "client.registered",
      userId: by,
      clientId: id,
      companyId: registration.companyId ?? undefined,
      details: { kind: registration.kind },
    });
    const secret = steps.firstSecret ? await insertSecret(tx, id, steps.firstSecret(), by) : undefined;
    return { client: registeredClientFromRow(row), secret };
  });
}

/**
 * Replaces a client's registration (its id stays) with its audit event; null (nothing written) when there is no such
 * client. `check` sees the stored client first and may refuse the change by throwing.
 */
function replaceClientRegistration(
  db: Db,
  clientId: string,
  registration: ClientRegistration,
  check: (companyExists: CompanyLookup, existing: RegisteredClient) => Promise<void>,
  by?: string,
): Promise<RegisteredClient | null> {
  return db.$transaction(async (tx) => {
    const existing = await tx.client.findUnique({ where: { id: clientId } });
    if (!existing) return null;
    await check((companyId) => companyExists(tx, companyId), registeredClientFromRow(existing));
    const updated = await tx.client.update({ where: { id: clientId }, data: clientRowData(registration) });
    const companyId = registration.companyId ?? undefined;
    await recordAuditEvent(tx, { type: "client.updated", userId: by, clientId, companyId });
    return registeredClientFromRow(updated);
  });
}

/** Sets when the client's secret expires (null: never), with its audit event; false when it has no such secret. */
function setSecretExpiry(
  db: Db,
  clientId: string,
  secretId: string,
  expiresAt: Date | null,
  by?: string,
): Promise<boolean> {
  return db.$transaction(async (tx) => {
    if (!(await tx.clientSecret.findFirst({ where: { id: secretId, clientId } }))) return false;
    await tx.clientSecret.update({ where: { id: secretId }, data: { expiresAt } });
    await recordAuditEvent(tx, {
      type: "client.secret_expiry_set",
      userId: by,
      clientId,
      details: { secretId, expiresAt },
    });
    return true;
  });
}

async function listClients(db: Db): Promise<RegisteredClient[]> {
  const rows = await db.client.findMany({ orderBy: { id: "asc" } });
  return rows.map(registeredClientFromRow);
}

/** The clients a company has the rights of (company_id), by id. */
async function listCompanyClients(db: Db, companyId: string): Promise<RegisteredClient[]> {
  const rows = await db.client.findMany({ where: { companyId }, orderBy: { id: "asc" } });
  return rows.map(registeredClientFromRow);
}

/** The client with its secrets as the operator sees them (never their hashes), or null. */
async function findClientAndSecrets(db: Db, clientId: string) {
  const row = await db.client.findUnique({ where: { id: clientId } });
  if (!row) return null;
  const secrets = await db.clientSecret.findMany({
    where: { clientId },
    orderBy: { createdAt: "asc" },
    select: { id: true, description: true, createdAt: true, expiresAt: true, disabledAt: true, lastUsedAt: true },
  });
  return { client: registeredClientFromRow(row), secrets };
}

/**
 * Adds a secret with its audit event and returns it; null (nothing written) when there is no such client.
 * `secret` sees the stored client and how many of its secrets are usable (neither disabled nor expired), and gives
 * the secret, or refuses by throwing.
 */
function insertClientSecret(
  db: Db,
  clientId: string,
  secret: (client: RegisteredClient, usableSecrets: number) => NewClientSecret,
  by?: string,
): Promise<StoredClientSecret | null> {
  return db.$transaction(async (tx) => {
    const row = await tx.client.findUnique({ where: { id: clientId } });
    if (!row) return null;
    // Writing the client's row before counting makes concurrent additions wait for one another (PostgreSQL's row
    // lock; SQLite writes one at a time), so each counts the others' secrets; updated_at, the review version, stays.
    await tx.client.update({ where: { id: clientId }, data: { updatedAt: row.updatedAt } });
    const usable = await tx.clientSecret.count({
      where: { clientId, disabledAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] },
    });
    return insertSecret(tx, clientId, secret(registeredClientFromRow(row), usable), by);
  });
}

/** Disables the client's secret with its audit event, unless there is no such client or secret or it is disabled. */
function disableSecret(
  db: Db,
  clientId: string,
  secretId: string,
  by?: string,
): Promise<"disabled" | "no_client" | "no_secret" | "already_disabled"> {
  return db.$transaction(async (tx) => {
    if (!(await clientExists(tx, clientId))) return "no_client";
    const secret = await tx.clientSecret.findFirst({ where: { id: secretId, clientId } });
    if (!secret) return "no_secret";
    if (secret.disabledAt) return "already_disabled";
    await tx.clientSecret.update({ where: { id: secretId }, data: { disabledAt: new Date() } });
    await recordAuditEvent(tx, { type: "client.secret_disabled", userId: by, clientId, details: { secretId } });
    return "disabled";
  });
}

/** Removes the client with its secrets, consents, codes and refresh tokens; false when there is no such client. */
function deleteClient(db: Db, clientId: string, by?: string, details?: AuditDetails): Promise<boolean> {
  return db.$transaction(async (tx) => {
    // deleteMany: of two removals at once, the second finds nothing instead of failing.
    if ((await tx.client.deleteMany({ where: { id: clientId } })).count === 0) return false;
    // Sessions remember the clients they signed in to without a foreign key: a later client of the same id must not
    // inherit them (and be told of their sign-outs).
    await tx.loginSessionClient.deleteMany({ where: { clientId } });
    await recordAuditEvent(tx, { type: "client.removed", userId: by, clientId, details });
    return true;
  });
}

/** How these clients authenticate and which grants they may use (those that exist). */
export function findClientGrantTypes(db: Pick<Db, "client">, clientIds: string[]) {
  return db.client.findMany({
    where: { id: { in: clientIds } },
    select: { id: true, tokenEndpointAuthMethod: true, grantTypes: true },
  });
}

export interface ClientRegistryStore {
  exists(clientId: string): Promise<boolean>;
  /** Whether a new client may not have this id: another client has it, or a person does. */
  idTaken(clientId: string): Promise<boolean>;
  /** Registers a client; null (nothing written) when the id is taken. The steps run in the same transaction. */
  insert(
    id: string,
    registration: ClientRegistration,
    steps: { checkCompany(companyExists: CompanyLookup): Promise<void>; firstSecret?: () => NewClientSecret },
    by?: string,
  ): Promise<{ client: RegisteredClient; secret?: StoredClientSecret } | null>;
  replaceRegistration(
    clientId: string,
    registration: ClientRegistration,
    check: (companyExists: CompanyLookup, existing: RegisteredClient) => Promise<void>,
    by?: string,
  ): Promise<RegisteredClient | null>;
  setSecretExpiry(clientId: string, secretId: string, expiresAt: Date | null, by?: string): Promise<boolean>;
  list(): Promise<RegisteredClient[]>;
  /** The clients with this company_id, by id. */
  listOfCompany(companyId: string): Promise<RegisteredClient[]>;
  findWithSecrets(clientId: string): Promise<{ client: RegisteredClient; secrets: ClientSecretInfo[] } | null>;
  insertSecret(
    clientId: string,
    secret: (client: RegisteredClient, usableSecrets: number) => NewClientSecret,
    by?: string,
  ): Promise<StoredClientSecret | null>;
  disableSecret(
    clientId: string,
    secretId: string,
    by?: string,
  ): Promise<"disabled" | "no_client" | "no_secret" | "already_disabled">;
  remove(clientId: string, by?: string, details?: AuditDetails): Promise<boolean>;
}

export const prismaClientRegistryStore = (db: Db): ClientRegistryStore =>
  bindDb(db, {
    exists: clientExists,
    idTaken: clientIdTaken,
    insert: insertClient,
    replaceRegistration: replaceClientRegistration,
    setSecretExpiry,
    list: listClients,
    listOfCompany: listCompanyClients,
    findWithSecrets: findClientAndSecrets,
    insertSecret: insertClientSecret,
    disableSecret,
    remove: deleteClient,
  });
