/**
 * The route table's entries for OptiGate's pages (lib/server/routes.ts): the forms they post to, the company sign-in
 * round trip, a sign-in notice's "not me" page, the partner portal's "Try sign-in" and the language switch. Each
 * answers a browser, never a client; those that can start a session pass the sign-in notice step.
 */
import { ENDPOINTS, FORMS } from "@/lib/http/paths";
import { fromModule, loadOnce } from "@/lib/server/on-demand";
import type { RouteSpec } from "@/lib/server/routes";
import type { ServiceContext } from "@/lib/service-context";

type Endpoint = (request: Request, context: ServiceContext) => Promise<Response>;

const signInNoticeStep = loadOnce(() => import("@/lib/forms/sign-in-notice-step"));

/**
 * An endpoint that can start a session: its answer passes the sign-in notice step (lib/forms/sign-in-notice-step.ts),
 * which tells the owner of a browser new to the account, unless the request made the account (its first sign-in).
 */
const signingIn =
  (endpoint: Endpoint): Endpoint =>
  async (request, context) => {
    const startedAt = new Date();
    const answer = await endpoint(request, context);
    return (await signInNoticeStep()).passSignInNoticeStep(request, context, answer, startedAt);
  };

const companyWebhooksModule = () => import("@/lib/forms/company-webhook-submission");
const developerTrialModule = () => import("@/lib/forms/developer-trial-submission");
const invitationModule = () => import("@/lib/forms/invitation-submission");
const passwordModule = () => import("@/lib/forms/password-submission");
const secondFactorModule = () => import("@/lib/forms/second-factor-submission");
const notMeModule = () => import("@/lib/forms/not-me-submission");

export const PAGE_FORM_ROUTES = {
  [FORMS.login]: {
    web: { POST: signingIn(fromModule(() => import("@/lib/forms/login-submission"), "handleLoginSubmission")) },
  },
  [ENDPOINTS.companySsoCallback]: {
    web: { GET: signingIn(fromModule(() => import("@/lib/forms/company-sso-callback"), "handleCompanySsoCallback")) },
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
    web: { POST: signingIn(fromModule(invitationModule, "handleInvitationSubmission")) },
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
  [FORMS.forgotPassword]: { web: { POST: fromModule(passwordModule, "handleForgotPasswordSubmission") } },
  [FORMS.resetPassword]: {
    web: { POST: signingIn(fromModule(passwordModule, "handleResetPasswordSubmission")) },
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
    web: { POST: signingIn(fromModule(secondFactorModule, "handleSecondFactorSubmission")) },
  },
  [FORMS.passkey]: {
    web: { POST: signingIn(fromModule(() => import("@/lib/forms/passkey-submission"), "handlePasskeySubmission")) },
  },
  [ENDPOINTS.notMe]: {
    web: { GET: fromModule(notMeModule, "handleNotMePage"), POST: fromModule(notMeModule, "handleNotMeSubmission") },
  },
  [FORMS.security]: {
    web: { POST: fromModule(() => import("@/lib/forms/security-submission"), "handleSecuritySubmission") },
  },
  [ENDPOINTS.language]: {
    web: { GET: fromModule(() => import("@/lib/i18n/language-switch"), "handleLanguageSwitch") },
  },
} as const satisfies Record<string, RouteSpec>;
