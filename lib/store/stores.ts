/**
 * Every store, one per aggregate, as the service reaches its data: `prismaStores(db)` on SQLite or PostgreSQL, and
 * `memoryStores()` (lib/store/memory/) for tests of the rules that need no database. Both pass one contract suite
 * (tests/unit/store/ on memory, tests/integration/store/ on the databases).
 */
import type { Db } from "@/lib/db/prisma";
import { prismaAccountLinkStore, type AccountLinkStore } from "@/lib/store/account-link-store";
import { prismaAuditStore, type AuditStore } from "@/lib/store/audit-store";
import { prismaAuthorizationCodeStore, type AuthorizationCodeStore } from "@/lib/store/authorization-code-store";
import {
  prismaAuthorizationRequestStore,
  type AuthorizationRequestStore,
} from "@/lib/store/authorization-request-store";
import { prismaClientStore, type ClientStore } from "@/lib/store/client-store";
import { prismaConsentStore, type ConsentStore } from "@/lib/store/consent-store";
import { prismaLoginSessionStore, type LoginSessionStore } from "@/lib/store/login-session-store";
import { prismaOutboxStore, type OutboxStore } from "@/lib/store/outbox-store";
import { prismaRefreshTokenStore, type RefreshTokenStore } from "@/lib/store/refresh-token-store";
import { prismaSecondFactorStore, type SecondFactorStore } from "@/lib/store/second-factor-store";
import { prismaSigningKeyStore, type SigningKeyStore } from "@/lib/store/signing-key-store";
import { prismaThrottleStore, type ThrottleStore } from "@/lib/store/throttle-store";
import { prismaTicketStore, type TicketStore } from "@/lib/store/ticket-store";
import { prismaUsedAssertionStore, type UsedAssertionStore } from "@/lib/store/used-assertion-store";
import { prismaUserStore, type UserStore } from "@/lib/store/user-store";

export interface Stores {
  accountLinks: AccountLinkStore;
  audit: AuditStore;
  authorizationCodes: AuthorizationCodeStore;
  authorizationRequests: AuthorizationRequestStore;
  clients: ClientStore;
  consents: ConsentStore;
  loginSessions: LoginSessionStore;
  outbox: OutboxStore;
  refreshTokens: RefreshTokenStore;
  secondFactors: SecondFactorStore;
  signingKeys: SigningKeyStore;
  throttles: ThrottleStore;
  tickets: TicketStore;
  usedAssertions: UsedAssertionStore;
  users: UserStore;
}

const built = new WeakMap<Db, Stores>();

/** The stores over one database client; built once per client, as they hold nothing but it. */
export function prismaStores(db: Db): Stores {
  let stores = built.get(db);
  if (!stores) {
    stores = {
      accountLinks: prismaAccountLinkStore(db),
      audit: prismaAuditStore(db),
      authorizationCodes: prismaAuthorizationCodeStore(db),
      authorizationRequests: prismaAuthorizationRequestStore(db),
      clients: prismaClientStore(db),
      consents: prismaConsentStore(db),
      loginSessions: prismaLoginSessionStore(db),
      outbox: prismaOutboxStore(db),
      refreshTokens: prismaRefreshTokenStore(db),
      secondFactors: prismaSecondFactorStore(db),
      signingKeys: prismaSigningKeyStore(db),
      throttles: prismaThrottleStore(db),
      tickets: prismaTicketStore(db),
      usedAssertions: prismaUsedAssertionStore(db),
      users: prismaUserStore(db),
    };
    built.set(db, stores);
  }
  return stores;
}
