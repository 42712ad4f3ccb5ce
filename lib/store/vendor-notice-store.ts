/**
 * What software vendors' developers are told by mail about their applications (lib/admin/partner-notices.ts): who
 * they are, the secrets about to expire, and marking a secret's developers told, once.
 */
import type { Db } from "@/lib/db/prisma";
import type { LocalizedText } from "@/lib/i18n/localized-text";
import type { NewOutboxMessage } from "@/lib/store/models/outbox";
import { transactionWithMail } from "@/lib/store/mail-transaction";

/** Who hears about a vendor's applications: its active administrators and developers, with their language. */
export function findVendorDevelopers(
  db: Db,
  companyId: string,
): Promise<{ email: string; preferredLanguage: string | null }[]> {
  return db.user.findMany({
    where: { companyId, active: true, role: { in: ["admin", "developer"] } },
    select: { email: true, preferredLanguage: true },
  });
}

/** A vendor's secret about to expire, with the application it belongs to. */
export interface ExpiringSecret {
  id: string;
  description: string | null;
  expiresAt: Date | null;
  client: { id: string; names: LocalizedText; ownerCompanyId: string | null };
}

/** Vendors' active secrets that expire before `until` and whose developers were not told yet, with their client. */
export async function findSecretsExpiringSoon(
  db: Db,
  now: Date,
  until: Date,
  limit: number,
): Promise<ExpiringSecret[]> {
  const rows = await db.clientSecret.findMany({
    where: {
      disabledAt: null,
      expiryNoticeSentAt: null,
      expiresAt: { gt: now, lte: until },
      client: { ownerCompanyId: { not: null }, status: "approved" },
    },
    select: {
      id: true,
      description: true,
      expiresAt: true,
      client: { select: { id: true, names: true, ownerCompanyId: true } },
    },
    take: limit,
  });
  return rows.map(({ client, ...secret }) => ({
    ...secret,
    client: { ...client, names: JSON.parse(client.names) as LocalizedText },
  }));
}

/** Marks the secret's developers told, with the mail that tells them, once (a concurrent run finds it marked). */
export async function storeExpiryNotice(
  db: Db,
  secretId: string,
  mail: NewOutboxMessage[],
  now: Date,
): Promise<boolean> {
  return transactionWithMail(db, async (tx, queueMail) => {
    const marked = await tx.clientSecret.updateMany({
      where: { id: secretId, expiryNoticeSentAt: null },
      data: { expiryNoticeSentAt: now },
    });
    if (marked.count === 0) return false;
    await queueMail(mail, now);
    return true;
  });
}
