/**
 * "Test connection" on /portal/company: a real sign-in round trip at the company's provider that signs nobody in. It
 * starts like a person's sign-in, in the same sealed cookie marked as a test of this administrator and of the settings
 * as they were; the provider sends the browser back to /login/sso/callback, which hands a test here. The answer is
 * checked as a sign-in's (state, iss, nonce, audience, signature, tenant, hosted domain), what the provider said about
 * the person is reported, and the settings are marked tested while they are still the ones tested. Only the same
 * administrator, still administrator of that company, in the same browser, gets the report.
 */
import "server-only";
import { CompanySsoError } from "@/lib/admin/company-sso-registry";
import { emailDomain } from "@/lib/http/domain-name";
import { ENDPOINTS, PAGES } from "@/lib/http/paths";
import { logger } from "@/lib/observability/logger";
import { CompanySignInFailed } from "@/lib/oauth/company-sso/company-sign-in-failed";
import { finishCompanySignIn } from "@/lib/oauth/company-sso/finish-company-sign-in";
import { companySignInCookie, type KeptCompanySignIn } from "@/lib/oauth/company-sso/sign-in-cookie";
import { startCompanySignIn } from "@/lib/oauth/company-sso/start-company-sign-in";
import { companySsoConfigOf } from "@/lib/oauth/company-sso/stored-config";
import type { CompanySignInIdentity } from "@/lib/oauth/company-sso/upstream-identity";
import { AccessDenied, actorOfRequest, type Actor } from "@/lib/rights/actor";
import { ssoAdministered } from "@/lib/rights/company-sso-settings";
import type { ServiceContext } from "@/lib/service-context";
import type { CompanySso } from "@/lib/store/models/company-sso";

/** Why a test gave no identity: the provider's failure, or a test that is not this administrator's to finish. */
type CompanySsoTestFailure = CompanySignInFailed["code"] | "not_your_test" | "no_provider";

export type CompanySsoTestResult =
  | {
      ok: true;
      identity: CompanySignInIdentity;
      /** the address's domain is one the company has verified: the person could sign in */
      emailDomainVerified: boolean;
      /** false: the settings changed since the test began, so they are not marked tested */
      recorded: boolean;
    }
  | { ok: false; failure: CompanySsoTestFailure; upstreamError?: string; reason?: string };

/** The failure as the page reports it: its code, the provider's error code, and what happened in a sentence. */
export function testFailureOf(error: CompanySignInFailed): CompanySsoTestResult {
  return { ok: false, failure: error.code, upstreamError: error.upstreamError, reason: error.message };
}

/**
 * Where the administrator's browser goes to sign in at the provider, and the cookie that keeps the test; throws
 * CompanySignInFailed when the provider cannot be asked, CompanySsoError "not_found" while nothing is set up.
 */
export async function startCompanySsoTest(actor: Actor, locale: string): Promise<{ location: string; cookie: string }> {
  const [user, company] = await ssoAdministered(actor);
  const { context } = user;
  const sso = await context.stores.companySso.find(company.id);
  if (!sso) throw new CompanySsoError("not_found", "the company has no identity provider set up");
  const { authorizationUrl, pending } = await startCompanySignIn(
    await companySsoConfigOf(sso, context),
    { redirectUri: `${context.config.publicUrl}${ENDPOINTS.companySsoCallback}`, uiLocales: locale },
    context.config,
  );
  const test = { userId: user.session.user.id, settingsOf: sso.updatedAt.getTime() };
  return {
    location: authorizationUrl,
    cookie: companySignInCookie({ pending, returnUrl: PAGES.company, test }, context.config),
  };
}

/** The administrator of the request, when it is the one who began the test and still administers that company. */
async function testerOf(context: ServiceContext, request: Request, kept: KeptCompanySignIn) {
  try {
    const [user, company] = await ssoAdministered(await actorOfRequest(context, request));
    const same = user.session.user.id === kept.test?.userId && company.id === kept.pending.companyId;
    return same ? user : undefined;
  } catch (error) {
    if (error instanceof AccessDenied) return undefined;
    throw error;
  }
}

/** The identity the provider answered with, or why it gave none (logged with what happened). */
async function providerAnswer(context: ServiceContext, sso: CompanySso, kept: KeptCompanySignIn, callback: URL) {
  try {
    const config = await companySsoConfigOf(sso, context);
    return await finishCompanySignIn(config, kept.pending, callback, context.config);
  } catch (error) {
    if (!(error instanceof CompanySignInFailed)) throw error;
    const { code, message, upstreamError, detail } = error;
    logger.info({ companyId: sso.companyId, code, reason: message, upstreamError, detail }, "company SSO test failed");
    return error;
  }
}

/** Finishes a test at the callback: what the provider answered, or why there is nothing to show. */
export async function finishCompanySsoTest(
  context: ServiceContext,
  request: Request,
  kept: KeptCompanySignIn,
): Promise<CompanySsoTestResult> {
  const tester = await testerOf(context, request, kept);
  if (!tester || !kept.test) return { ok: false, failure: "not_your_test" };
  const { stores } = context;
  const { companyId } = kept.pending;
  const sso = await stores.companySso.find(companyId);
  if (!sso) return { ok: false, failure: "no_provider" };
  const identity = await providerAnswer(context, sso, kept, new URL(request.url));
  if (identity instanceof CompanySignInFailed) return testFailureOf(identity);
  const domain = identity.email === undefined ? null : emailDomain(identity.email);
  const held = domain ? await stores.companySso.findDomain(domain) : null;
  const settingsOf = new Date(kept.test.settingsOf);
  const recorded = await stores.companySso.markTested(companyId, settingsOf, tester.session.user.id);
  return { ok: true, identity, emailDomainVerified: held?.companyId === companyId && !!held.verifiedAt, recorded };
}
