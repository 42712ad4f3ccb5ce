/**
 * Sealing anew what is sealed at rest (`keys reseal`), after SECRET_KEYS gained a newest key: the private parts of
 * signing keys, authenticator-app secrets, companies' SSO client secrets, webhook secrets and queued mail bodies are
 * opened under whichever accepted key sealed them and sealed under the newest, one row at a time, each only while it
 * still holds what was read (a secret replaced or a mail sent meanwhile is left to its new state). What no accepted
 * key opens is counted and left as it is.
 */
import { isSealedUnder, seal, unseal, type KeyPurpose } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/prisma";

export interface ResealCounts {
  resealed: number;
  current: number;
  unreadable: number;
}

type Row = { id: string; sealed: string };

export async function resealRows(
  rows: Row[],
  secretKey: string,
  purpose: KeyPurpose,
  /** stores the value sealed anew where the row still holds `was`; how many rows it changed */
  store: (id: string, was: string, sealed: string) => Promise<{ count: number }>,
): Promise<ResealCounts> {
  const counts: ResealCounts = { resealed: 0, current: 0, unreadable: 0 };
  for (const row of rows) {
    if (isSealedUnder(row.sealed, secretKey)) {
      counts.current++;
      continue;
    }
    let plaintext: string;
    try {
      plaintext = unseal(row.sealed, secretKey, purpose);
    } catch {
      counts.unreadable++;
      continue;
    }
    if ((await store(row.id, row.sealed, seal(plaintext, secretKey, purpose))).count === 1) counts.resealed++;
  }
  return counts;
}

export async function resealSecrets(db: Db, secretKey: string): Promise<Record<string, ResealCounts>> {
  const signingKeys = await db.signingKey.findMany({ select: { id: true, privateKeyEncrypted: true } });
  const apps = await db.totpFactor.findMany({ select: { userId: true, sealedSecret: true } });
  const mail = await db.outboxMessage.findMany({
    // Failed mail keeps its body when it can be sent again (lib/mail/outbox.ts): it must stay readable too.
    where: { status: { in: ["queued", "failed"] }, sealedBody: { not: null } },
    select: { id: true, sealedBody: true },
  });
  const webhookSecrets = await db.webhookEndpoint.findMany({ select: { id: true, secretSealed: true } });
  const ssoSecrets = await db.companySso.findMany({
    where: { clientSecretSealed: { not: null } },
    select: { companyId: true, clientSecretSealed: true },
  });
  return {
    signingKeys: await resealRows(
      signingKeys.map((row) => ({ id: row.id, sealed: row.privateKeyEncrypted })),
      secretKey,
      "signing-key-encryption",
      (id, was, sealed) =>
        db.signingKey.updateMany({ where: { id, privateKeyEncrypted: was }, data: { privateKeyEncrypted: sealed } }),
    ),
    authenticatorApps: await resealRows(
      apps.map((row) => ({ id: row.userId, sealed: row.sealedSecret })),
      secretKey,
      "totp-secret",
      (userId, was, sealed) =>
        db.totpFactor.updateMany({ where: { userId, sealedSecret: was }, data: { sealedSecret: sealed } }),
    ),
    companySsoSecrets: await resealRows(
      ssoSecrets.map((row) => ({ id: row.companyId, sealed: row.clientSecretSealed! })),
      secretKey,
      "company-sso-secret",
      (companyId, was, sealed) =>
        db.companySso.updateMany({
          where: { companyId, clientSecretSealed: was },
          data: { clientSecretSealed: sealed },
        }),
    ),
    webhookSecrets: await resealRows(
      webhookSecrets.map((row) => ({ id: row.id, sealed: row.secretSealed })),
      secretKey,
      "webhook-secret",
      (id, was, sealed) =>
        db.webhookEndpoint.updateMany({ where: { id, secretSealed: was }, data: { secretSealed: sealed } }),
    ),
    queuedMail: await resealRows(
      mail.map((row) => ({ id: row.id, sealed: row.sealedBody! })),
      secretKey,
      "outbox",
      (id, was, sealed) =>
        db.outboxMessage.updateMany({
          where: { id, sealedBody: was },
          data: { sealedBody: sealed },
        }),
    ),
  };
}
