/**
 * The scopes of a client registration: known, none twice, none a backend client cannot use, offline_access only with
 * refresh tokens, and the management API's scopes only where they fit (client-metadata.ts reads the rest).
 */
import { fail, optionalString } from "@/lib/admin/client-metadata-fields";
import type { ClientKind } from "@/lib/store/models/client";
import {
  isCompanyManageScope,
  isManageScope,
  OFFLINE_ACCESS,
  OPENID_SCOPES,
  scopeDefinitions,
} from "@/lib/oauth/scopes";

export function resolveScopes(
  metadata: Record<string, unknown>,
  kind: ClientKind,
  offlineAccess: boolean,
  apiScopePrefix: string,
): string[] {
  const raw = optionalString(metadata, "scope");
  if (raw === undefined && kind === "backend")
    fail("scope is required for backend clients (the platform API scopes it may use)");
  const scopes = raw === undefined ? [...OPENID_SCOPES] : raw.trim().split(/\s+/);
  const known = new Set(scopeDefinitions(apiScopePrefix).map((scope) => scope.name));
  for (const scope of scopes) {
    if (!known.has(scope)) fail(`scope "${scope}" is unknown (known: ${[...known].join(" ")})`);
    if (scopes.indexOf(scope) !== scopes.lastIndexOf(scope)) fail(`scope lists "${scope}" twice`);
  }
  if (kind === "backend") {
    const forbidden = scopes.find(
      (scope) => scope === OFFLINE_ACCESS || (OPENID_SCOPES as readonly string[]).includes(scope),
    );
    if (forbidden) fail(`backend clients act for no user and cannot have the scope "${forbidden}"`);
  }
  if (scopes.includes(OFFLINE_ACCESS) && !offlineAccess)
    fail(`scope "${OFFLINE_ACCESS}" requires "offline_access": true`);
  if (offlineAccess && !scopes.includes(OFFLINE_ACCESS)) scopes.push(OFFLINE_ACCESS);
  return scopes;
}

/**
 * The management API's scopes are for backend clients: the operator's (`manage.*`) act for the platform and have no
 * company; a company's own (`manage.company.*`) reach the company named by company_id and nothing else.
 */
export function checkManageScopes(scopes: string[], kind: ClientKind, companyId: string | null): void {
  const manage = scopes.filter(isManageScope);
  if (manage.length === 0) return;
  if (kind !== "backend") fail(`scope "${manage[0]}" is for backend clients (client_credentials) only`);
  const company = manage.filter(isCompanyManageScope);
  if (company.length > 0 && companyId === null) fail(`scope "${company[0]}" needs the company_id it manages`);
  const platform = manage.find((scope) => !isCompanyManageScope(scope));
  if (platform !== undefined && companyId !== null)
    fail(`scope "${platform}" acts for the whole platform: a client with a company_id cannot have it`);
}
