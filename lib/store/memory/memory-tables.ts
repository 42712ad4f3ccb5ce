/**
 * The rows of the in-memory stores: one Map per table, keyed as the database's unique index is. Stores hand out
 * copies, so a caller changing a returned value changes nothing stored, as with a database.
 */
import type { ScopeDefinition } from "@/lib/store/consent-store";
import type { RecordedAuditEvent } from "@/lib/store/models/audit-event";
import type { AuthorizationCode, RefreshToken } from "@/lib/store/models/token";
import type { Company, SupplierWebService, User } from "@/lib/store/models/user";
import type { AttemptCount } from "@/lib/store/throttle-store";
import type { MemoryClient } from "@/lib/store/memory/memory-clients";
import type { StoredSigningKey } from "@/lib/store/signing-key-store";
import type { StoredSession } from "@/lib/store/memory/memory-login-sessions";
import type { StoredTrustedIssuer } from "@/lib/store/memory/memory-trusted-issuers";
import type { StoredInvitation } from "@/lib/store/memory/memory-invitations";
import type { StoredArticle } from "@/lib/store/memory/memory-catalogs";
import type { StoredRegistration } from "@/lib/store/memory/memory-registrations";
import type { Catalog, CatalogRevision } from "@/lib/store/models/catalog";
import type { StoredAccessToken } from "@/lib/store/memory/memory-partners";
import type { StoredTicket } from "@/lib/store/memory/memory-tickets";
import type { StoredAccountLink } from "@/lib/store/memory/memory-account-links";
import type { StoredSignInNotice } from "@/lib/store/memory/memory-sign-in-notices";
import type { StoredOutboxMessage } from "@/lib/store/memory/memory-outbox";
import type { StoredPasskey, TotpFactor, UsedChallenge } from "@/lib/store/models/second-factor";
import type { CompanyDomain, CompanySso } from "@/lib/store/models/company-sso";
import type { WebhookDelivery, WebhookEndpoint } from "@/lib/store/models/webhook";
import type { StoredDeviceAuthorization } from "@/lib/store/memory/memory-device-authorizations";
import type { ActivityKind } from "@/lib/store/models/activity";

export class MemoryTables {
  /** By the SHA-256 of the token's value. */
  readonly refreshTokens = new Map<string, RefreshToken>();
  /** By the SHA-256 of the code's value. */
  readonly authorizationCodes = new Map<string, AuthorizationCode>();
  /** Until when each used assertion's key is kept. */
  readonly usedAssertions = new Map<string, Date>();
  readonly auditEvents: RecordedAuditEvent[] = [];
  readonly signingKeys: StoredSigningKey[] = [];
  /** By the SHA-256 of the cookie value. */
  readonly loginSessions = new Map<string, StoredSession>();
  /** "session id\nclient id" of each client a session signed in to. */
  readonly sessionClients = new Set<string>();
  /** By user and client. */
  readonly consents = new Map<
    string,
    {
      id: string;
      userId: string;
      clientId: string;
      scopes: string[];
      grantedAt: Date;
      lastUsedAt: Date | null;
      revokedAt: Date | null;
    }
  >();
  /** Scope definitions by name: none unless a test adds them (the database gets them at start-up). */
  readonly scopes = new Map<string, ScopeDefinition>();
  readonly users = new Map<string, User>();
  readonly companies = new Map<string, Company>();
  /** Suppliers' catalog web services. */
  webServices: SupplierWebService[] = [];
  /** By client id. */
  readonly clients = new Map<string, MemoryClient>();
  /** By id. */
  readonly accountLinks = new Map<string, StoredAccountLink>();
  /** By id. */
  readonly signInNotices = new Map<string, StoredSignInNotice>();
  /** Mail written by the changes that cause it, oldest first. */
  outbox: StoredOutboxMessage[] = [];
  /** Authenticator apps by user id. */
  readonly totp = new Map<string, TotpFactor>();
  recoveryCodes: { userId: string; codeHash: string; createdAt: Date; usedAt: Date | null }[] = [];
  /** By id. */
  readonly passkeys = new Map<string, StoredPasskey>();
  /** WebAuthn challenges that came back, by their hash. */
  readonly usedChallenges = new Map<string, UsedChallenge>();
  /** Consent prompts by the SHA-256 of their value. */
  readonly interactions = new Map<
    string,
    { sessionId: string; clientId: string; parameters: [string, string][]; expiresAt: Date }
  >();
  /** Pushed authorization requests by the SHA-256 of their request_uri's random part. */
  readonly pushedRequests = new Map<
    string,
    {
      clientId: string;
      parameters: [string, string][];
      expiresAt: Date;
      startedAt: Date | null;
      usedAt: Date | null;
    }
  >();
  /** Device authorization requests by id. */
  readonly deviceAuthorizations = new Map<string, StoredDeviceAuthorization>();
  /** By the SHA-256 of the ticket value. */
  readonly tickets = new Map<string, StoredTicket>();
  /** Attempt counters by key. */
  readonly throttles = new Map<string, AttemptCount>();
  /** activity_counts by hour, company and kind */
  readonly activityCounts = new Map<string, { hour: Date; companyId: string; kind: ActivityKind; count: number }>();
  /** Operators' initial access tokens for vendors, by id. */
  readonly initialAccessTokens = new Map<string, StoredAccessToken>();
  /** The platform scopes each software vendor may ask for. */
  readonly partnerScopes = new Map<string, string[]>();
  /** The own APIs (RFC 8707 resources) each software vendor's applications may name. */
  readonly partnerResources = new Map<string, string[]>();
  /** The software vendors whose applications waiting for approval have no sandbox. */
  readonly partnerSandboxOff = new Set<string>();
  /** Suppliers' catalogs and their revisions by id, and the revisions' articles. */
  readonly catalogs = new Map<string, Catalog>();
  readonly catalogRevisions = new Map<string, CatalogRevision>();
  catalogArticles: StoredArticle[] = [];
  /** Raised by every change the published catalog list is made of. */
  catalogListVersion = 0;
  /** Supplier registrations by id. */
  readonly registrations = new Map<string, StoredRegistration>();
  /** By id. */
  readonly invitations = new Map<string, StoredInvitation>();
  /** By issuer. */
  readonly trustedIssuers = new Map<string, StoredTrustedIssuer>();
  /** The user id each (issuer, subject) is linked to, by "issuer\nsubject". */
  readonly federatedSubjects = new Map<string, string>();
  /** Companies' own providers by company id, and the domains they claim by domain. */
  readonly companySso = new Map<string, CompanySso>();
  readonly companyDomains = new Map<string, CompanyDomain>();
  /** Upstream accounts linked to users, by "issuer\nsubject". */
  readonly ssoIdentities = new Map<
    string,
    { userId: string; companyId: string; createdAt: Date; lastSignInAt: Date | null }
  >();
  /** Webhook endpoints and their deliveries, by id. */
  readonly webhookEndpoints = new Map<string, WebhookEndpoint>();
  readonly webhookDeliveries = new Map<string, WebhookDelivery>();
}

export const copy = <T>(value: T): T => structuredClone(value);
