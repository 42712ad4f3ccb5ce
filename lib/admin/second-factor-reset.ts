/**
 * The operator resets a user's second factors (`users reset-second-factor`), when a phone is lost and the recovery
 * codes with it: the passkeys, the authenticator app and the recovery codes go, in one transaction with the audit
 * event and a notice to the user's address. The user signs in with the password again; where their company requires
 * a second factor, they are led to set one up at once.
 */
import { PAGES } from "@/lib/http/paths";
import type { Config } from "@/lib/config";
import type { DataAccess } from "@/lib/service-context";
import { localeOr } from "@/lib/i18n/locales";
import { renderAccountMail } from "@/lib/mail/account-mail";
import { sealMail } from "@/lib/mail/outbox";

export async function resetSecondFactors(
  context: DataAccess & { config: Pick<Config, "publicUrl" | "secretKey"> },
  email: string,
  by?: string,
): Promise<{ email: string; removed: number } | null> {
  const user = await context.stores.users.findByEmail(email);
  if (!user) return null;
  const language = localeOr(user.preferredLanguage);
  const content = await renderAccountMail(language, {
    kind: "second_factors_reset",
    url: `${context.config.publicUrl}${PAGES.security}?${new URLSearchParams({ ui_locales: language })}`,
  });
  const mail = [
    sealMail(context.config.secretKey, { kind: "second_factors_reset", recipient: email, language, content }),
  ];
  const removed = await context.stores.secondFactors.deleteAll(user.id, { mail, by }, new Date());
  return { email, removed };
}
