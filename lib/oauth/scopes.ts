/**
 * The scopes OptiGate knows: the OpenID Connect scopes of the service itself and the platform API scopes, named
 * `<API_SCOPE_PREFIX>.<area>.<access>`. Their names and descriptions are the `Scopes` messages of every language;
 * they are written to the `scopes` table at start-up (see sync-scopes.ts) so that they live next to the consents
 * that name them.
 */
import type messages from "@/messages/en.json";

type ScopeKind = "identity" | "api";
/** The key of a scope's texts in the `Scopes` messages. */
export type ScopeTextKey = keyof (typeof messages)["Scopes"];

export interface ScopeDefinition {
  name: string;
  kind: ScopeKind;
  textKey: ScopeTextKey;
}

export const OPENID_SCOPES = ["openid", "profile", "email"] as const;
export const OFFLINE_ACCESS = "offline_access";

const IDENTITY_SCOPES: ScopeDefinition[] = [
  { name: "openid", kind: "identity", textKey: "openid" },
  { name: "profile", kind: "identity", textKey: "profile" },
  { name: "email", kind: "identity", textKey: "email" },
  { name: OFFLINE_ACCESS, kind: "identity", textKey: "offline_access" },
];

function apiScopes(prefix: string): ScopeDefinition[] {
  return [
    { name: `${prefix}.catalogs.read`, kind: "api", textKey: "catalogs_read" },
    { name: `${prefix}.supplierreg.read`, kind: "api", textKey: "supplierreg_read" },
    { name: `${prefix}.supplierreg.readwrite`, kind: "api", textKey: "supplierreg_readwrite" },
  ];
}

export function scopeDefinitions(apiScopePrefix: string): ScopeDefinition[] {
  return [...IDENTITY_SCOPES, ...apiScopes(apiScopePrefix)];
}
