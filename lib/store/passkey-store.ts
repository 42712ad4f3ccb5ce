/**
 * Passkeys at rest (`passkeys`): a user's WebAuthn credentials with their public key, signature counter and backup
 * flags. A use moves the counter forward with a conditional update, so that of two assertions carrying the same
 * counter only one counts.
 */
import type { Db } from "@/lib/db/prisma";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { recordAuditEvent } from "@/lib/store/audit-store";

import type { StoredPasskey } from "@/lib/store/models/second-factor";

type PasskeyRow = Omit<StoredPasskey, "counter" | "transports"> & { counter: bigint; transports: string };

const fromRow = (row: PasskeyRow): StoredPasskey => ({
  ...row,
  counter: Number(row.counter),
  transports: JSON.parse(row.transports) as string[],
});

export async function listPasskeys(db: Db, userId: string): Promise<StoredPasskey[]> {
  return (await db.passkey.findMany({ where: { userId }, orderBy: { createdAt: "asc" } })).map(fromRow);
}

export async function findPasskey(db: Db, credentialId: string): Promise<StoredPasskey | null> {
  const row = await db.passkey.findUnique({ where: { credentialId } });
  return row ? fromRow(row) : null;
}

/** Stores a new passkey with its audit event; false when the credential is registered already. */
export async function storePasskey(
  db: Db,
  passkey: Omit<StoredPasskey, "id" | "createdAt" | "lastUsedAt">,
  now: Date,
): Promise<boolean> {
  try {
    await db.$transaction(async (tx) => {
      await tx.passkey.create({
        data: {
          ...passkey,
          counter: BigInt(passkey.counter),
          transports: JSON.stringify(passkey.transports),
          createdAt: now,
        },
      });
      await recordAuditEvent(tx, {
        type: "user.passkey_added",
        userId: passkey.userId,
        details: { name: passkey.name, deviceType: passkey.deviceType },
      });
    });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/**
 * Records a use: the counter moves to `counter` only from the value that was read (`seen`), so a replayed or cloned
 * assertion racing this one loses. False when it lost.
 */
export async function recordPasskeyUse(
  db: Db,
  passkey: { id: string; seen: number },
  use: { counter: number; backedUp: boolean },
  now: Date,
): Promise<boolean> {
  const { count } = await db.passkey.updateMany({
    where: { id: passkey.id, counter: BigInt(passkey.seen) },
    data: { counter: BigInt(use.counter), backedUp: use.backedUp, lastUsedAt: now },
  });
  return count === 1;
}

export async function renamePasskey(db: Db, userId: string, id: string, name: string): Promise<boolean> {
  return (await db.passkey.updateMany({ where: { id, userId }, data: { name } })).count === 1;
}

/** Removes one of the user's passkeys with its audit event; false when there is no such passkey of theirs. */
export function deletePasskey(db: Db, userId: string, id: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    if ((await tx.passkey.deleteMany({ where: { id, userId } })).count === 0) return false;
    await recordAuditEvent(tx, { type: "user.passkey_removed", userId, details: { passkey: id } });
    return true;
  });
}
