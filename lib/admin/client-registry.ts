/**
 * Registered clients and their secrets: register, list, show, add and disable secrets, remove. Every change is one
 * transaction together with its audit event (naming the operator who made it, `by`, when it came from the operator
 * pages), and drops the client from this process's client cache. Secrets are
 * generated here (256 bits), returned once and stored only as SHA-256 hashes.
 */
import { OptiGateError } from "@/lib/errors/optigate-error";
import { MAX_DESCRIPTION_LENGTH } from "@/lib/config/policy";
import { ClientMetadataError, generateClientId } from "@/lib/admin/client-metadata";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { generateOpaqueToken, hashToken } from "@/lib/crypto/tokens";
import {
  clientRowData,
  registeredClientFromRow,
  type ClientRegistration,
  type RegisteredClient,
} from "@/lib/oauth/clients/client-record";
import type { Db, DbTransaction } from "@/lib/db/prisma";
import { forgetClient } from "@/lib/oauth/clients/client-store";

export class ClientRegistryError extends OptiGateError<"not_found" | "already_exists" | "invalid_state"> {
  constructor(
    readonly code: "not_found" | "already_exists" | "invalid_state",
    message: string,
  ) {
    super(message);
  }
}

export interface ClientSecretInfo {
  id: string;
  description: string | null;
  createdAt: Date;
  expiresAt: Date | null;
  disabledAt: Date | null;
}

export interface NewSecret {
  secretId: string;
  /** The only time the secret is visible. */
  secret: string;
}

export interface SecretOptions {
  description?: string;
  expiresAt?: Date;
  /** A given value, for fixed demo secrets; otherwise 256 random bits. */
  value?: string;
}

/** Public clients have no secret, and private_key_jwt clients authenticate with their keys instead. */
function usesSecrets(registration: { tokenEndpointAuthMethod: string }): boolean {
  return (
    registration.tokenEndpointAuthMethod === "client_secret_basic" ||
    registration.tokenEndpointAuthMethod === "client_secret_post"
  );
}

async function createSecret(
  tx: DbTransaction,
  clientId: string,
  options: SecretOptions,
  by?: string,
): Promise<NewSecret> {
  if (
    options.description !== undefined &&
    (options.description.length > MAX_DESCRIPTION_LENGTH || /[\u0000-\u001f]/.test(options.description))
  ) {
    throw new ClientRegistryError(
      "invalid_state",
      `a secret's description must be at most ${MAX_DESCRIPTION_LENGTH} characters on one line`,
    );
  }
  if (options.expiresAt && options.expiresAt.getTime() <= Date.now()) {
    throw new ClientRegistryError("invalid_state", "a new secret's expiry must lie in the future");
  }
  const secret = options.value ?? generateOpaqueToken();
  const row = await tx.clientSecret.create({
    data: { clientId, secretHash: hashToken(secret), description: options.description, expiresAt: options.expiresAt },
  });
  await recordAuditEvent(tx, { type: "client.secret_added", userId: by, clientId, details: { secretId: row.id } });
  return { secretId: row.id, secret };
}

/** A client's company must exist: the metadata names it by id. */
async function checkCompany(tx: DbTransaction, registration: ClientRegistration): Promise<void> {
  if (
    registration.companyId &&
    !(await tx.company.findUnique({ where: { id: registration.companyId }, select: { id: true } }))
  ) {
    throw new ClientMetadataError("invalid_client_metadata", `company_id "${registration.companyId}" is no company`);
  }
}

async function requireClient(tx: DbTransaction, clientId: string) {
  const row = await tx.client.findUnique({ where: { id: clientId } });
  if (!row) throw new ClientRegistryError("not_found", `no client with client_id "${clientId}"`);
  return row;
}

/** Registers a client; confidential clients get their first secret, returned here once. */
export async function registerClient(
  db: Db,
  registration: ClientRegistration,
  secretOptions: SecretOptions = {},
  by?: string,
): Promise<{ client: RegisteredClient; secret?: NewSecret }> {
  return db
    .$transaction(async (tx) => {
      const id = registration.id ?? generateClientId();
      if (await tx.client.findUnique({ where: { id }, select: { id: true } })) {
        throw new ClientRegistryError("already_exists", `client_id "${id}" is already registered`);
      }
      await checkCompany(tx, registration);
      const row = await tx.client.create({ data: { id, ...clientRowData(registration) } });
      await recordAuditEvent(tx, {
        type: "client.registered",
        userId: by,
        clientId: id,
        details: { kind: registration.kind },
      });
      const secret = usesSecrets(registration) ? await createSecret(tx, id, secretOptions, by) : undefined;
      return { client: registeredClientFromRow(row), secret };
    })
    .finally(() => forgetClient(registration.id));
}

/** Replaces a client's registration with a new one (same validation as registering); its id stays. */
export async function updateClient(
  db: Db,
  clientId: string,
  registration: ClientRegistration,
  by?: string,
): Promise<RegisteredClient> {
  const row = await db.$transaction(async (tx) => {
    const existing = await requireClient(tx, clientId);
    if (existing.tokenEndpointAuthMethod === "none" && registration.tokenEndpointAuthMethod !== "none") {
      throw new ClientRegistryError(
        "invalid_state",
        "a public client cannot become confidential; register a new client instead",
      );
    }
    // Its refresh tokens were issued to a client that authenticated; as a public client's they would be bearer tokens.
    if (existing.tokenEndpointAuthMethod !== "none" && registration.tokenEndpointAuthMethod === "none") {
      throw new ClientRegistryError(
        "invalid_state",
        "a confidential client cannot become public; register a new client instead",
      );
    }
    await checkCompany(tx, registration);
    const updated = await tx.client.update({ where: { id: clientId }, data: clientRowData(registration) });
    await recordAuditEvent(tx, { type: "client.updated", userId: by, clientId });
    return updated;
  });
  forgetClient(clientId);
  return registeredClientFromRow(row);
}

export async function setClientSecretExpiry(
  db: Db,
  clientId: string,
  secretId: string,
  expiresAt: Date | null,
  by?: string,
): Promise<void> {
  await db.$transaction(async (tx) => {
    const secret = await tx.clientSecret.findFirst({ where: { id: secretId, clientId } });
    if (!secret) throw new ClientRegistryError("not_found", `client "${clientId}" has no secret with id "${secretId}"`);
    await tx.clientSecret.update({ where: { id: secretId }, data: { expiresAt } });
    await recordAuditEvent(tx, {
      type: "client.secret_expiry_set",
      userId: by,
      clientId,
      details: { secretId, expiresAt },
    });
  });
  forgetClient(clientId);
}

export async function listClients(db: Db): Promise<RegisteredClient[]> {
  const rows = await db.client.findMany({ orderBy: { id: "asc" } });
  return rows.map(registeredClientFromRow);
}

export async function showClient(
  db: Db,
  clientId: string,
): Promise<{ client: RegisteredClient; secrets: ClientSecretInfo[] }> {
  const row = await requireClient(db, clientId);
  const secrets = await db.clientSecret.findMany({
    where: { clientId },
    orderBy: { createdAt: "asc" },
    select: { id: true, description: true, createdAt: true, expiresAt: true, disabledAt: true },
  });
  return { client: registeredClientFromRow(row), secrets };
}

export async function addClientSecret(
  db: Db,
  clientId: string,
  options: SecretOptions = {},
  by?: string,
): Promise<NewSecret> {
  forgetClient(clientId);
  return db.$transaction(async (tx) => {
    const row = await requireClient(tx, clientId);
    if (row.tokenEndpointAuthMethod === "none") {
      throw new ClientRegistryError("invalid_state", `client "${clientId}" is a public client and has no secrets`);
    }
    if (!usesSecrets(row))
      throw new ClientRegistryError(
        "invalid_state",
        `client "${clientId}" authenticates with its keys (private_key_jwt), not with secrets`,
      );
    return createSecret(tx, clientId, options, by);
  });
}

export async function disableClientSecret(db: Db, clientId: string, secretId: string, by?: string): Promise<void> {
  await db.$transaction(async (tx) => {
    await requireClient(tx, clientId);
    const secret = await tx.clientSecret.findFirst({ where: { id: secretId, clientId } });
    if (!secret) throw new ClientRegistryError("not_found", `client "${clientId}" has no secret with id "${secretId}"`);
    if (secret.disabledAt) throw new ClientRegistryError("invalid_state", `secret "${secretId}" is already disabled`);
    await tx.clientSecret.update({ where: { id: secretId }, data: { disabledAt: new Date() } });
    await recordAuditEvent(tx, { type: "client.secret_disabled", userId: by, clientId, details: { secretId } });
  });
  forgetClient(clientId);
}

/** Removes the client with its secrets, consents, codes and refresh tokens. */
export async function removeClient(db: Db, clientId: string, by?: string): Promise<void> {
  await db.$transaction(async (tx) => {
    await requireClient(tx, clientId);
    await tx.client.delete({ where: { id: clientId } });
    await recordAuditEvent(tx, { type: "client.removed", userId: by, clientId });
  });
  forgetClient(clientId);
}
