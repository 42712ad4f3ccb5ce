/**
 * Every path of OptiGate, named once: the pages people see, the forms those pages post to, and the endpoints clients
 * call. The route table (lib/server/routes.ts) declares the forms and endpoints under these names; pages, links,
 * redirects and the discovery document use the names, never the text.
 */
export const PAGES = {
  login: "/login",
  secondFactor: "/login/second-factor",
  consent: "/consent",
  /** Where a person lets a device sign in as them (RFC 8628 verification_uri; CONTRACT §14). */
  device: "/device",
  signOut: "/signout",
  invitation: "/invitation",
  forgotPassword: "/password/forgot",
  resetPassword: "/password/reset",
  confirmEmail: "/email/confirm",
  /** Each person's home: their tasks (an operator's is /admin). Where a sign-in without a return address lands. */
  home: "/portal",
  portal: "/portal/applications",
  profile: "/portal/profile",
  catalogs: "/portal/catalogs",
  suppliers: "/portal/suppliers",
  company: "/portal/company",
  developer: "/portal/developer",
  security: "/portal/security",
  admin: "/admin",
  adminAudit: "/admin/audit",
  adminClients: "/admin/clients",
  adminCompanies: "/admin/companies",
  adminFederation: "/admin/federation",
  adminOutbox: "/admin/outbox",
  adminWebhooks: "/admin/webhooks",
  /** The platform API's reference, from its OpenAPI document, with requests to try. */
  apiDocs: "/docs/api",
  /** The management API's reference, the same way. */
  manageDocs: "/docs/manage",
  /** The guide for applications (docs/relying-parties.md) as a page. */
  relyingPartyGuide: "/docs/relying-parties",
} as const;

/** Where the pages' forms post to. */
export const FORMS = {
  login: "/interaction/login",
  consent: "/interaction/consent",
  device: "/interaction/device",
  signOut: "/interaction/signout",
  portal: "/interaction/portal",
  admin: "/interaction/admin",
  catalogs: "/interaction/catalogs",
  suppliers: "/interaction/suppliers",
  invitation: "/interaction/invitation",
  company: "/interaction/company",
  /** The company sign-in section of /portal/company: the provider, its domains, its switches, its test. */
  companySso: "/interaction/company/sso",
  /** The company's own API clients on /portal/company: create, secrets, remove. */
  companyClients: "/interaction/company/clients",
  /** The company's own webhook endpoints on /portal/company: add, change, turn on or off, secret, remove, replay. */
  companyWebhooks: "/interaction/company/webhooks",
  companies: "/interaction/companies",
  forgotPassword: "/interaction/password/forgot",
  resetPassword: "/interaction/password/reset",
  email: "/interaction/email",
  account: "/interaction/account",
  developer: "/interaction/developer",
  developerTrial: "/interaction/developer/try",
  secondFactor: "/interaction/second-factor",
  passkey: "/interaction/passkey",
  security: "/interaction/security",
} as const;

/** What clients, opticians' software and operators' tools call. */
export const ENDPOINTS = {
  authorize: "/connect/authorize",
  token: "/connect/token",
  par: "/connect/par",
  deviceAuthorization: "/connect/deviceauthorization",
  revocation: "/connect/revocation",
  userinfo: "/connect/userinfo",
  introspect: "/connect/introspect",
  endSession: "/connect/endsession",
  register: "/connect/register",
  /** Another secret for a registered application, with its registration access token (RFC 7592 style). */
  registerSecrets: "/connect/register/secrets",
  discovery: "/.well-known/openid-configuration",
  jwks: "/.well-known/openid-configuration/jwks",
  catalogInfos: "/getCatalogInfos.ashx",
  subCatalog: "/getSubCatalog.ashx",
  silentLogin: "/services/login/SilentLogin",
  language: "/language",
  health: "/api/health",
  healthLive: "/api/health/live",
  healthReady: "/api/health/ready",
  cronPurge: "/api/cron/purge",
  cronOutbox: "/api/cron/outbox",
  metrics: "/metrics",
  platformApi: "/v2/[...path]",
  /** The management API (lib/api/manage/): every path and method under /manage/v1/. */
  manageApi: "/manage/v1/[...path]",
  /** Where a company's identity provider sends the person back (CONTRACT §14): registered at every such provider. */
  companySsoCallback: "/login/sso/callback",
  companySsoStart: "/login/sso/start",
  /** Where a company's identity provider posts its back-channel logout tokens: its backchannel_logout_uri. */
  companySsoBackchannelLogout: "/login/sso/backchannel-logout",
  /** A sign-in notice's "not me" link: the page that asks, and its form (lib/forms/not-me-submission.ts). */
  notMe: "/login/not-me",
  /** Where a vendor's "Try sign-in" comes back (lib/oauth/authorize/vendor-sign-in.ts): OptiGate's, never the app's. */
  developerTrialCallback: "/portal/developer/callback",
  /** The API reference pages' renderer (Scalar's browser build), served by OptiGate itself. */
  apiReferenceScript: "/docs/api-reference.js",
} as const;

/**
 * The pages of a sign-in under way (login, consent, a device's sign-in, sign-out, a forgotten password): they show no
 * menu that would lead away from it.
 */
const SIGN_IN_PAGES: string[] = [
  PAGES.login,
  PAGES.secondFactor,
  PAGES.consent,
  PAGES.device,
  PAGES.signOut,
  PAGES.forgotPassword,
  PAGES.resetPassword,
];

export function isSignInPath(pathname: string): boolean {
  return SIGN_IN_PAGES.includes(pathname);
}

/** The operator's page of one client. */
export const adminClientPage = (clientId: string) => `${PAGES.adminClients}/${encodeURIComponent(clientId)}`;

/** The operator's page of one webhook endpoint, with its delivery log. */
export const adminWebhookPage = (webhookId: string) => `${PAGES.adminWebhooks}/${encodeURIComponent(webhookId)}`;

/** The operator's page of one company. */
export const adminCompanyPage = (companyId: string) => `${PAGES.adminCompanies}/${encodeURIComponent(companyId)}`;

/** The partner portal's quick start of one of the vendor's applications. */
export const developerApplicationPage = (clientId: string) => `${PAGES.developer}/${encodeURIComponent(clientId)}`;
