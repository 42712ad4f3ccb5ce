/**
 * What a software vendor's developers (its active administrators and developers) are told by mail, through the
 * outbox, each in their own language: the operator's decision on an application, and that a secret expires within
 * SECRET_EXPIRY_NOTICE_DAYS (once per secret; the regular cleanup run looks for them).
 */
import { PAGES } from "@/lib/http/paths";
import type { Stores } from "@/lib/store/stores";
import { localizedText, type LocalizedText } from "@/lib/i18n/localized-text";
import { localeOr } from "@/lib/i18n/locales";
import { sealMail } from "@/lib/mail/outbox";
import { renderPartnerMail, type PartnerMail } from "@/lib/mail/partner-mail";
import type { NewOutboxMessage } from "@/lib/store/models/outbox";

const SECRET_EXPIRY_NOTICE_DAYS = 14;
const NOTICE_BATCH = 200;

type NoticeContext = { stores: Stores; config: { publicUrl: string; secretKey: string } };

/** The mail to each of the vendor's developers, rendered in their language. */
export async function mailToVendor(
  context: NoticeContext,
  companyId: string,
  mail: (portalUrl: string) => Omit<PartnerMail, "application"> & { names: LocalizedText },
): Promise<NewOutboxMessage[]> {
  const developers = await context.stores.partners.findVendorDevelopers(companyId);
  const url = `${context.config.publicUrl}${PAGES.developer}`;
  return Promise.all(
    developers.map(async ({ email, preferredLanguage }) => {
      const language = localeOr(preferredLanguage);
      const { names, ...rest } = mail(url);
      const application = localizedText(names, language);
      const content = await renderPartnerMail(language, { ...rest, application } as PartnerMail);
      return sealMail(context.config.secretKey, { kind: rest.kind, recipient: email, language, content });
    }),
  );
}

/** Tells vendors' developers of secrets that expire soon; how many secrets were announced. */
export async function announceExpiringSecrets(context: NoticeContext, now = new Date()): Promise<number> {
  const until = new Date(now.getTime() + SECRET_EXPIRY_NOTICE_DAYS * 86_400_000);
  const secrets = await context.stores.partners.findSecretsExpiringSoon(now, until, NOTICE_BATCH);
  let announced = 0;
  for (const secret of secrets) {
    const days = Math.max(1, Math.ceil((secret.expiresAt!.getTime() - now.getTime()) / 86_400_000));
    const mail = await mailToVendor(context, secret.client.ownerCompanyId!, (url) => ({
      kind: "secret_expiring",
      names: secret.client.names,
      secret: secret.description ?? secret.id,
      days,
      url,
    }));
    if (await context.stores.partners.saveExpiryNotice(secret.id, mail, now)) announced++;
  }
  return announced;
}
