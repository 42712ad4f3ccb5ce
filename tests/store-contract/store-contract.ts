/**
 * The contract every implementation of the stores keeps (lib/store/stores.ts): the same cases run on the in-memory
 * stores (tests/unit/store/) and on SQLite and PostgreSQL (tests/integration/store/).
 */
import { accountLinkContract } from "./account-links";
import { activityContract } from "./activity";
import { auditContract } from "./audit";
import { authorizationCodeContract } from "./authorization-codes";
import { authorizationRequestContract } from "./authorization-requests";
import { catalogContract } from "./catalogs";
import { clientContract } from "./clients";
import { clientRegistryContract } from "./client-registry";
import { companyContract } from "./companies";
import { companySsoContract } from "./company-sso";
import { consentContract } from "./consents";
import { deviceAuthorizationContract } from "./device-authorizations";
import { invitationContract } from "./invitations";
import { loginSessionContract } from "./login-sessions";
import { maintenanceContract } from "./maintenance";
import { outboxContract } from "./outbox";
import { partnerContract } from "./partners";
import { peopleContract } from "./people";
import { refreshTokenContract } from "./refresh-tokens";
import { registrationContract } from "./registrations";
import { secondFactorContract } from "./second-factors";
import { signInNoticeContract } from "./sign-in-notices";
import { signingKeyContract } from "./signing-keys";
import type { StoreBackend } from "./store-backend";
import { throttleContract } from "./throttles";
import { ticketContract } from "./tickets";
import { trustedIssuerContract } from "./trusted-issuers";
import { usedAssertionContract } from "./used-assertions";
import { userContract } from "./users";
import { webhookContract } from "./webhooks";

export function storeContract(backend: StoreBackend): void {
  accountLinkContract(backend);
  activityContract(backend);
  auditContract(backend);
  authorizationCodeContract(backend);
  authorizationRequestContract(backend);
  catalogContract(backend);
  clientContract(backend);
  clientRegistryContract(backend);
  companyContract(backend);
  companySsoContract(backend);
  consentContract(backend);
  deviceAuthorizationContract(backend);
  invitationContract(backend);
  loginSessionContract(backend);
  maintenanceContract(backend);
  outboxContract(backend);
  partnerContract(backend);
  peopleContract(backend);
  refreshTokenContract(backend);
  registrationContract(backend);
  secondFactorContract(backend);
  signInNoticeContract(backend);
  signingKeyContract(backend);
  throttleContract(backend);
  ticketContract(backend);
  trustedIssuerContract(backend);
  usedAssertionContract(backend);
  userContract(backend);
  webhookContract(backend);
}
