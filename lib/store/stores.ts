/**
 * Every store, one per aggregate, as the service reaches its data: `prismaStores(db)` on SQLite or PostgreSQL, and
 * `memoryStores()` (lib/store/memory/) for tests of the rules that need no database. Both pass one contract suite
 * (tests/unit/store/ on memory, tests/integration/store/ on the databases).
 */
import type { DatabaseTarget } from "@/lib/config/database-url";
import { closeDb, getPrismaClient, type Db } from "@/lib/db/prisma";
import { prismaApiCallerStore, type ApiCallerStore } from "@/lib/store/api-caller-store";
import { prismaActivityStore, type ActivityStore } from "@/lib/store/activity-store";
import { prismaCatalogStore, type CatalogStore } from "@/lib/store/catalog-store";
import { prismaClientRegistryStore, type ClientRegistryStore } from "@/lib/store/client-registry-store";
import { prismaCompanyStore, type CompanyStore } from "@/lib/store/company-store";
import { prismaCompanySsoStore, type CompanySsoStore } from "@/lib/store/company-sso-store";
import { prismaInvitationStore, type InvitationStore } from "@/lib/store/invitation-store";
import { prismaMaintenanceStore, type MaintenanceStore } from "@/lib/store/maintenance-store";
import { prismaPartnerStore, type PartnerStore } from "@/lib/store/partner-store";
import { prismaPeopleStore, type PeopleStore } from "@/lib/store/user-admin-store";
import { prismaRegistrationStore, type RegistrationStore } from "@/lib/store/registration-store";
import { prismaTrustedIssuerStore, type TrustedIssuerStore } from "@/lib/store/trusted-issuer-store";
import { prismaAccountLinkStore, type AccountLinkStore } from "@/lib/store/account-link-store";
import { prismaAuditStore, type AuditStore } from "@/lib/store/audit-store";
import { prismaAuthorizationCodeStore, type AuthorizationCodeStore } from "@/lib/store/authorization-code-store";
import {
  prismaAuthorizationRequestStore,
  type AuthorizationRequestStore,
} from "@/lib/store/authorization-request-store";
import { prismaClientStore, type ClientStore } from "@/lib/store/client-store";
import { prismaConsentStore, type ConsentStore } from "@/lib/store/consent-store";
import { prismaDeviceAuthorizationStore, type DeviceAuthorizationStore } from "@/lib/store/device-authorization-store";
import { prismaLoginSessionStore, type LoginSessionStore } from "@/lib/store/login-session-store";
import { prismaOutboxStore, type OutboxStore } from "@/lib/store/outbox-store";
import { prismaRefreshTokenStore, type RefreshTokenStore } from "@/lib/store/refresh-token-store";
import { prismaSecondFactorStore, type SecondFactorStore } from "@/lib/store/second-factor-store";
import { prismaSignInNoticeStore, type SignInNoticeStore } from "@/lib/store/sign-in-notice-store";
import { prismaSigningKeyStore, type SigningKeyStore } from "@/lib/store/signing-key-store";
import { prismaThrottleStore, type ThrottleStore } from "@/lib/store/throttle-store";
import { prismaTicketStore, type TicketStore } from "@/lib/store/ticket-store";
import { prismaUsedAssertionStore, type UsedAssertionStore } from "@/lib/store/used-assertion-store";
import { prismaUserStore, type UserStore } from "@/lib/store/user-store";
import { prismaWebhookStore, type WebhookStore } from "@/lib/store/webhook-store";

export interface Stores {
  accountLinks: AccountLinkStore;
  activity: ActivityStore;
  apiCallers: ApiCallerStore;
  audit: AuditStore;
  authorizationCodes: AuthorizationCodeStore;
  authorizationRequests: AuthorizationRequestStore;
  catalogs: CatalogStore;
  clientRegistry: ClientRegistryStore;
  clients: ClientStore;
  companies: CompanyStore;
  companySso: CompanySsoStore;
  consents: ConsentStore;
  deviceAuthorizations: DeviceAuthorizationStore;
  invitations: InvitationStore;
  loginSessions: LoginSessionStore;
  maintenance: MaintenanceStore;
  outbox: OutboxStore;
  partners: PartnerStore;
  people: PeopleStore;
  refreshTokens: RefreshTokenStore;
  registrations: RegistrationStore;
  secondFactors: SecondFactorStore;
  signInNotices: SignInNoticeStore;
  signingKeys: SigningKeyStore;
  throttles: ThrottleStore;
  tickets: TicketStore;
  trustedIssuers: TrustedIssuerStore;
  usedAssertions: UsedAssertionStore;
  users: UserStore;
  webhooks: WebhookStore;
}

const built = new WeakMap<Db, Stores>();

/** The stores over one database client; built once per client, as they hold nothing but it. */
export function prismaStores(db: Db): Stores {
  let stores = built.get(db);
  if (!stores) {
    stores = {
      accountLinks: prismaAccountLinkStore(db),
      activity: prismaActivityStore(db),
      apiCallers: prismaApiCallerStore(db),
      catalogs: prismaCatalogStore(db),
      clientRegistry: prismaClientRegistryStore(db),
      companies: prismaCompanyStore(db),
      companySso: prismaCompanySsoStore(db),
      invitations: prismaInvitationStore(db),
      maintenance: prismaMaintenanceStore(db),
      partners: prismaPartnerStore(db),
      people: prismaPeopleStore(db),
      registrations: prismaRegistrationStore(db),
      trustedIssuers: prismaTrustedIssuerStore(db),
      audit: prismaAuditStore(db),
      authorizationCodes: prismaAuthorizationCodeStore(db),
      authorizationRequests: prismaAuthorizationRequestStore(db),
      clients: prismaClientStore(db),
      consents: prismaConsentStore(db),
      deviceAuthorizations: prismaDeviceAuthorizationStore(db),
      loginSessions: prismaLoginSessionStore(db),
      outbox: prismaOutboxStore(db),
      refreshTokens: prismaRefreshTokenStore(db),
      secondFactors: prismaSecondFactorStore(db),
      signInNotices: prismaSignInNoticeStore(db),
      signingKeys: prismaSigningKeyStore(db),
      throttles: prismaThrottleStore(db),
      tickets: prismaTicketStore(db),
      usedAssertions: prismaUsedAssertionStore(db),
      users: prismaUserStore(db),
      webhooks: prismaWebhookStore(db),
    };
    built.set(db, stores);
  }
  return stores;
}

/** The stores of the database a process is configured with; one client per database, shared by all who ask. */
export const storesFor = (target: DatabaseTarget): Stores => prismaStores(getPrismaClient(target));

/** Closes the connections to that database, as a process that is done with it does before it exits. */
export const closeStores = (target: DatabaseTarget): Promise<void> => closeDb(getPrismaClient(target));
