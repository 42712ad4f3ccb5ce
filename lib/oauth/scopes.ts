/**
 * The scopes OptiGate knows: the OpenID Connect scopes of the service itself and the platform API scopes, named
 * `<API_SCOPE_PREFIX>.<area>.<access>`, and the management API's scopes, `manage.<resource>.<access>` for the
 * operator's automation and `manage.company.<resource>.<access>` for a company's own (lib/api/manage/). Their names and descriptions are the `Scopes` messages of every language;
 * they are written to the `scopes` table at start-up (see sync-scopes.ts) so that they live next to the consents
 * that name them.
 */
import type messages from "@/messages/en.json";

type ScopeKind = "identity" | "api" | "manage";
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

/** The resources of the management API an operator's client may be given, and the access to each. */
export const PLATFORM_MANAGE_SCOPES = [
  "manage.companies.read",
  "manage.companies.write",
  "manage.users.read",
  "manage.users.write",
  "manage.clients.read",
  "manage.clients.write",
  "manage.keys.read",
  "manage.keys.write",
  "manage.issuers.read",
  "manage.issuers.write",
  "manage.sso.read",
  "manage.sso.write",
  "manage.audit.read",
  "manage.outbox.read",
  "manage.outbox.write",
  "manage.webhooks.read",
  "manage.webhooks.write",
] as const;

/** What a company administrator's own API client may be given: its company's people, SSO and webhooks. */
export const COMPANY_MANAGE_SCOPES = [
  "manage.company.users.read",
  "manage.company.users.write",
  "manage.company.sso.read",
  "manage.company.sso.write",
  "manage.company.webhooks.read",
  "manage.company.webhooks.write",
] as const;

type ManageScope = (typeof PLATFORM_MANAGE_SCOPES)[number] | (typeof COMPANY_MANAGE_SCOPES)[number];

/** `manage.companies.read` → `manage_companies_read`, its key in the `Scopes` messages. */
const manageScope = (name: ManageScope): ScopeDefinition => ({
  name,
  kind: "manage",
  textKey: name.replaceAll(".", "_") as ScopeTextKey,
});

export const isManageScope = (scope: string): boolean => scope.startsWith("manage.");
export const isCompanyManageScope = (scope: string): boolean =>
  (COMPANY_MANAGE_SCOPES as readonly string[]).includes(scope);

export function scopeDefinitions(apiScopePrefix: string): ScopeDefinition[] {
  return [
    ...IDENTITY_SCOPES,
    ...apiScopes(apiScopePrefix),
    ...PLATFORM_MANAGE_SCOPES.map(manageScope),
    ...COMPANY_MANAGE_SCOPES.map(manageScope),
  ];
}
