/**
 * The stores held in memory, for tests of grants and rules that need no database: the same interfaces and rules
 * as the database stores, checked by the same contract suite. One process, no persistence.
 */
import type { Stores } from "@/lib/store/stores";
import { memoryAccountLinkStore } from "@/lib/store/memory/memory-account-links";
import { memoryAuditStore } from "@/lib/store/memory/memory-audit";
import { memoryAuthorizationCodeStore } from "@/lib/store/memory/memory-authorization-codes";
import { memoryAuthorizationRequestStore } from "@/lib/store/memory/memory-authorization-requests";
import { memoryClientStore } from "@/lib/store/memory/memory-clients";
import { memoryCatalogStore } from "@/lib/store/memory/memory-catalogs";
import { memoryMaintenanceStore } from "@/lib/store/memory/memory-maintenance";
import { memoryApiCallerStore, memoryRegistrationStore } from "@/lib/store/memory/memory-registrations";
import { memoryClientRegistryStore } from "@/lib/store/memory/memory-client-registry";
import { memoryPartnerStore } from "@/lib/store/memory/memory-partners";
import { memoryCompanyStore } from "@/lib/store/memory/memory-companies";
import { memoryCompanySsoStore } from "@/lib/store/memory/memory-company-sso";
import { memoryConsentStore } from "@/lib/store/memory/memory-consents";
import { memoryDeviceAuthorizationStore } from "@/lib/store/memory/memory-device-authorizations";
import { memoryInvitationStore } from "@/lib/store/memory/memory-invitations";
import { memoryPeopleStore } from "@/lib/store/memory/memory-people";
import { memoryRefreshTokenStore } from "@/lib/store/memory/memory-refresh-tokens";
import { memoryLoginSessionStore } from "@/lib/store/memory/memory-login-sessions";
import { memoryOutboxStore } from "@/lib/store/memory/memory-outbox";
import { MemoryTables } from "@/lib/store/memory/memory-tables";
import { memorySecondFactorStore } from "@/lib/store/memory/memory-second-factors";
import { memorySignInNoticeStore } from "@/lib/store/memory/memory-sign-in-notices";
import { memorySigningKeyStore } from "@/lib/store/memory/memory-signing-keys";
import { memoryThrottleStore } from "@/lib/store/memory/memory-throttles";
import { memoryTicketStore } from "@/lib/store/memory/memory-tickets";
import { memoryTrustedIssuerStore } from "@/lib/store/memory/memory-trusted-issuers";
import { memoryUsedAssertionStore } from "@/lib/store/memory/memory-used-assertions";
import { memoryUserStore } from "@/lib/store/memory/memory-users";
import { memoryWebhookStore } from "@/lib/store/memory/memory-webhooks";
import { memoryActivityStore } from "@/lib/store/memory/memory-activity";

export function memoryStores(tables = new MemoryTables()): Stores {
  const audit = memoryAuditStore(tables);
  return {
    accountLinks: memoryAccountLinkStore(tables, audit),
    activity: memoryActivityStore(tables),
    apiCallers: memoryApiCallerStore(tables),
    audit,
    authorizationCodes: memoryAuthorizationCodeStore(tables),
    authorizationRequests: memoryAuthorizationRequestStore(tables),
    catalogs: memoryCatalogStore(tables, audit),
    clientRegistry: memoryClientRegistryStore(tables, audit),
    clients: memoryClientStore(tables),
    companies: memoryCompanyStore(tables, audit),
    companySso: memoryCompanySsoStore(tables, audit),
    consents: memoryConsentStore(tables, audit),
    deviceAuthorizations: memoryDeviceAuthorizationStore(tables, audit),
    invitations: memoryInvitationStore(tables, audit),
    loginSessions: memoryLoginSessionStore(tables),
    maintenance: memoryMaintenanceStore(tables),
    outbox: memoryOutboxStore(tables, audit),
    partners: memoryPartnerStore(tables, audit),
    people: memoryPeopleStore(tables, audit),
    refreshTokens: memoryRefreshTokenStore(tables),
    registrations: memoryRegistrationStore(tables, audit),
    secondFactors: memorySecondFactorStore(tables, audit),
    signInNotices: memorySignInNoticeStore(tables, audit),
    signingKeys: memorySigningKeyStore(tables, audit),
    throttles: memoryThrottleStore(tables),
    tickets: memoryTicketStore(tables),
    trustedIssuers: memoryTrustedIssuerStore(tables, audit),
    usedAssertions: memoryUsedAssertionStore(tables, audit),
    users: memoryUserStore(tables),
    webhooks: memoryWebhookStore(tables, audit),
  };
}
