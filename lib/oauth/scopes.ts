/**
 * The scopes OptiGate knows: the OpenID Connect scopes of the service itself and the platform API scopes, named
 * `<API_SCOPE_PREFIX>.<area>.<access>`. They are written to the `scopes` table at start-up (see sync-scopes.ts) so
 * that their localized texts live next to the consents that name them.
 */
import type { LocalizedText } from "@/lib/i18n/localized-text";

type ScopeKind = "identity" | "api";

export interface ScopeDefinition {
  name: string;
  kind: ScopeKind;
  displayNames: LocalizedText;
  descriptions: LocalizedText;
}

export const OPENID_SCOPES = ["openid", "profile", "email"] as const;
export const OFFLINE_ACCESS = "offline_access";

const IDENTITY_SCOPES: ScopeDefinition[] = [
  {
    name: "openid",
    kind: "identity",
    displayNames: { en: "Sign you in", de: "Sie anmelden" },
    descriptions: {
      en: "Confirm who you are with your OptiGate account.",
      de: "Bestätigen, wer Sie sind, mit Ihrem OptiGate-Konto.",
    },
  },
  {
    name: "profile",
    kind: "identity",
    displayNames: { en: "Your profile", de: "Ihr Profil" },
    descriptions: { en: "Your name, language and company.", de: "Ihr Name, Ihre Sprache und Ihr Unternehmen." },
  },
  {
    name: "email",
    kind: "identity",
    displayNames: { en: "Your email address", de: "Ihre E-Mail-Adresse" },
    descriptions: {
      en: "Your email address and whether it is confirmed.",
      de: "Ihre E-Mail-Adresse und ob sie bestätigt ist.",
    },
  },
  {
    name: OFFLINE_ACCESS,
    kind: "identity",
    displayNames: { en: "Stay connected", de: "Verbunden bleiben" },
    descriptions: {
      en: "Keep access while you are not signed in, until you revoke it.",
      de: "Zugriff auch dann, wenn Sie nicht angemeldet sind, bis Sie ihn widerrufen.",
    },
  },
];

function apiScopes(prefix: string): ScopeDefinition[] {
  return [
    {
      name: `${prefix}.catalogs.read`,
      kind: "api",
      displayNames: { en: "Read catalogs", de: "Kataloge lesen" },
      descriptions: {
        en: "List and download the catalogs of your suppliers.",
        de: "Die Kataloge Ihrer Lieferanten auflisten und herunterladen.",
      },
    },
    {
      name: `${prefix}.supplierreg.read`,
      kind: "api",
      displayNames: { en: "Read supplier registrations", de: "Lieferantenregistrierungen lesen" },
      descriptions: {
        en: "See your registrations with suppliers.",
        de: "Ihre Registrierungen bei Lieferanten einsehen.",
      },
    },
    {
      name: `${prefix}.supplierreg.readwrite`,
      kind: "api",
      displayNames: { en: "Manage supplier registrations", de: "Lieferantenregistrierungen verwalten" },
      descriptions: {
        en: "See and change your registrations with suppliers.",
        de: "Ihre Registrierungen bei Lieferanten einsehen und ändern.",
      },
    },
  ];
}

export function scopeDefinitions(apiScopePrefix: string): ScopeDefinition[] {
  return [...IDENTITY_SCOPES, ...apiScopes(apiScopePrefix)];
}
