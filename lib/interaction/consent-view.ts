/** What the consent page shows for an authorization request: the client and the requested scopes, localized. */
import { localizedText } from "@/lib/i18n/localized-text";
import { validateAuthorizationRequest, type AuthorizationRequest } from "@/lib/oauth/authorize/authorization-request";
import { OFFLINE_ACCESS } from "@/lib/oauth/scopes";
import type { ServiceContext } from "@/lib/service-context";

export interface ConsentView {
  clientName: string;
  clientDescription?: string;
  offline: boolean;
  scopes: { name: string; title: string; description: string; required: boolean }[];
}

export async function consentView(context: ServiceContext, request: AuthorizationRequest, locale: string): Promise<ConsentView> {
  const rows = await context.db.scope.findMany({ where: { name: { in: request.scopes } } });
  const byName = new Map(rows.map((row) => [row.name, row]));
  return {
    clientName: localizedText(request.client.names, locale, request.client.id),
    clientDescription: localizedText(request.client.descriptions, locale) || undefined,
    offline: request.scopes.includes(OFFLINE_ACCESS),
    scopes: request.scopes.map((name) => {
      const row = byName.get(name);
      return {
        name,
        title: row ? localizedText(JSON.parse(row.displayNames), locale, name) : name,
        description: row ? localizedText(JSON.parse(row.descriptions), locale) : "",
        required: name === "openid",
      };
    }),
  };
}

/** The authorization request behind the consent page, or the reason it cannot be shown. */
export async function authorizationForPage(context: ServiceContext, params: URLSearchParams): Promise<{ request?: AuthorizationRequest; problem?: string }> {
  try {
    return { request: await validateAuthorizationRequest(context.db, params) };
  } catch (error) {
    return { problem: (error as Error).message };
  }
}
