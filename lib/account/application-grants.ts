/**
 * What the portal shows a user about the applications they allowed: one entry per current consent, with the client's
 * localized name and description, the granted scopes in plain words, when access was granted, whether it includes
 * offline access, and when the application last used it (a sign-in or a refresh).
 */
import { localizedText } from "@/lib/i18n/localized-text";
import { OFFLINE_ACCESS } from "@/lib/oauth/scopes";
import type { DataAccess } from "@/lib/service-context";

export interface ApplicationGrant {
  clientId: string;
  name: string;
  description: string;
  scopes: { name: string; title: string }[];
  grantedAt: Date;
  offline: boolean;
  lastUsedAt: Date | null;
}

const latest = (...dates: (Date | null | undefined)[]) =>
  dates.reduce<Date | null>((max, date) => (date && (!max || date > max) ? date : max), null);

export async function listApplicationGrants(
  { stores }: DataAccess,
  userId: string,
  locale: string,
): Promise<ApplicationGrant[]> {
  const [consents, scopes, tokens] = await Promise.all([
    stores.consents.listCurrent(userId),
    stores.consents.listScopes(),
    stores.refreshTokens.listUses(userId),
  ]);
  const titles = new Map(scopes.map((scope) => [scope.name, localizedText(scope.displayNames, locale, scope.name)]));
  return consents.map((consent) => {
    const granted = consent.scopes;
    return {
      clientId: consent.clientId,
      name: localizedText(consent.client.names, locale, consent.clientId),
      description: localizedText(consent.client.descriptions, locale),
      scopes: granted.map((name) => ({ name, title: titles.get(name) ?? name })),
      grantedAt: consent.grantedAt,
      offline: granted.includes(OFFLINE_ACCESS),
      lastUsedAt: latest(
        consent.lastUsedAt,
        ...tokens.filter((t) => t.clientId === consent.clientId).map((t) => t.lastUsedAt),
      ),
    };
  });
}
