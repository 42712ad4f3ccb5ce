/**
 * The route table's entries for OptiGate's pages (lib/server/routes.ts): the forms they post to, the company sign-in
 * round trip, the partner portal's "Try sign-in" and the language switch. Each answers a browser, never a client.
 */
import { ENDPOINTS, FORMS } from "@/lib/http/paths";
import { fromModule } from "@/lib/server/on-demand";
import type { RouteSpec } from "@/lib/server/routes";

const companyWebhooksModule = () => import("@/lib/forms/company-webhook-submission");
const developerTrialModule = () => import("@/lib/forms/developer-trial-submission");

export const PAGE_FORM_ROUTES = {
  [FORMS.login]: { web: { POST: fromModule(() => import("@/lib/forms/login-submission"), "handleLoginSubmission") } },
  [ENDPOINTS.companySsoCallback]: {
    web: { GET: fromModule(() => import("@/lib/forms/company-sso-callback"), "handleCompanySsoCallback") },
  },
  [ENDPOINTS.companySsoStart]: {
    web: { GET: fromModule(() => import("@/lib/forms/company-sso-start"), "handleCompanySsoStart") },
  },
  [ENDPOINTS.companySsoBackchannelLogout]: {
    web: {
      POST: fromModule(() => import("@/lib/forms/company-sso-backchannel-logout"), "handleCompanySsoBackchannelLogout"),
    },
  },
  [FORMS.consent]: {
    web: { POST: fromModule(() => import("@/lib/forms/consent-submission"), "handleConsentSubmission") },
  },
  [FORMS.device]: {
    web: { POST: fromModule(() => import("@/lib/forms/device-submission"), "handleDeviceSubmission") },
  },
  [FORMS.signOut]: {
    web: { POST: fromModule(() => import("@/lib/forms/signout-submission"), "handleSignOutSubmission") },
  },
  [FORMS.portal]: {
    web: { POST: fromModule(() => import("@/lib/forms/portal-submission"), "handlePortalSubmission") },
  },
  [FORMS.admin]: { web: { POST: fromModule(() => import("@/lib/forms/admin-submission"), "handleAdminSubmission") } },
  [FORMS.catalogs]: {
    web: { POST: fromModule(() => import("@/lib/forms/catalog-submission"), "handleCatalogSubmission") },
  },
  [FORMS.suppliers]: {
    web: { POST: fromModule(() => import("@/lib/forms/registration-submission"), "handleRegistrationSubmission") },
  },
  [FORMS.invitation]: {
    web: { POST: fromModule(() => import("@/lib/forms/invitation-submission"), "handleInvitationSubmission") },
  },
  [FORMS.company]: {
    web: { POST: fromModule(() => import("@/lib/forms/company-submission"), "handleCompanySubmission") },
  },
  [FORMS.companySso]: {
    web: { POST: fromModule(() => import("@/lib/forms/company-sso-submission"), "handleCompanySsoSubmission") },
  },
  [FORMS.companyClients]: {
    web: { POST: fromModule(() => import("@/lib/forms/company-client-submission"), "handleCompanyClientSubmission") },
  },
  [FORMS.companyWebhooks]: { web: { POST: fromModule(companyWebhooksModule, "handleCompanyWebhookSubmission") } },
  [FORMS.companies]: {
    web: { POST: fromModule(() => import("@/lib/forms/company-record-submission"), "handleCompanyRecordSubmission") },
  },
  [FORMS.forgotPassword]: {
    web: { POST: fromModule(() => import("@/lib/forms/password-submission"), "handleForgotPasswordSubmission") },
  },
  [FORMS.resetPassword]: {
    web: { POST: fromModule(() => import("@/lib/forms/password-submission"), "handleResetPasswordSubmission") },
  },
  [FORMS.email]: {
    web: { POST: fromModule(() => import("@/lib/forms/email-confirm-submission"), "handleEmailConfirmSubmission") },
  },
  [FORMS.account]: {
    web: { POST: fromModule(() => import("@/lib/forms/account-submission"), "handleAccountSubmission") },
  },
  [FORMS.developer]: {
    web: { POST: fromModule(() => import("@/lib/forms/developer-submission"), "handleDeveloperSubmission") },
  },
  [FORMS.developerTrial]: { web: { POST: fromModule(developerTrialModule, "handleDeveloperTrialStart") } },
  [ENDPOINTS.developerTrialCallback]: {
    web: { GET: fromModule(developerTrialModule, "handleDeveloperTrialCallback") },
  },
  [FORMS.secondFactor]: {
    web: { POST: fromModule(() => import("@/lib/forms/second-factor-submission"), "handleSecondFactorSubmission") },
  },
  [FORMS.passkey]: {
    web: { POST: fromModule(() => import("@/lib/forms/passkey-submission"), "handlePasskeySubmission") },
  },
  [FORMS.security]: {
    web: { POST: fromModule(() => import("@/lib/forms/security-submission"), "handleSecuritySubmission") },
  },
  [ENDPOINTS.language]: {
    web: { GET: fromModule(() => import("@/lib/i18n/language-switch"), "handleLanguageSwitch") },
  },
} as const satisfies Record<string, RouteSpec>;
