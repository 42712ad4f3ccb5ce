/**
 * The person back from their company's provider (GET /login/sso/callback): the kept sign-in opened (a missing,
 * forged or old cookie ends here), the company's provider as it is now (turned off meanwhile: refused), the answer
 * checked and redeemed (lib/oauth/company-sso/finish-company-sign-in.ts), the local account found or made
 * (company-sso-account.ts; or an existing account offered for linking, company-sso-link.ts), and the sign-in entered like a password's, with the provider's methods: `fed`, and `mfa`
 * when the provider reports it, which then meets the company's second-factor rule. Audited and counted either way.
 */
import "server-only";
import { logger } from "@/lib/observability/logger";
import { countSignIn } from "@/lib/observability/metrics";
import { CompanySignInFailed } from "@/lib/oauth/company-sso/company-sign-in-failed";
import { finishCompanySignIn } from "@/lib/oauth/company-sso/finish-company-sign-in";
import { loginPageErrorOf, type CompanySignInPageError } from "@/lib/oauth/company-sso/login-page-error";
import type { PendingSsoLink } from "@/lib/oauth/company-sso/link-cookie";
import { readCompanySignIn, type KeptCompanySignIn } from "@/lib/oauth/company-sso/sign-in-cookie";
import { companySsoConfigOf } from "@/lib/oauth/company-sso/stored-config";
import type { CompanySignInIdentity } from "@/lib/oauth/company-sso/upstream-identity";
import { companyAccountFor, type CompanyAccountRefusal } from "@/lib/rights/company-sso-account";
import { enterSignedIn, type SignedIn } from "@/lib/rights/sign-in";
import type { ServiceContext } from "@/lib/service-context";
import type { CompanySso } from "@/lib/store/models/company-sso";
import { AUTHENTICATION_METHODS, type AuthenticationMethod } from "@/lib/store/models/authentication";

type CompanyCallbackError = CompanySignInPageError | CompanyAccountRefusal | "sso_expired";

export type CompanyCallbackResult =
  | { ok: false; error: CompanyCallbackError; returnUrl?: string }
  | { ok: false; error: "sso_link_offered"; link: PendingSsoLink; returnUrl: string }
  | (SignedIn & { returnUrl: string });

interface Client {
  ipAddress?: string;
  userAgent?: string;
}

/** The session's methods: federated, with those of the provider's that OptiGate knows (its `mfa` above all). */
export const federatedAmr = (upstream: readonly string[] = []): AuthenticationMethod[] => [
  ...new Set([
    "fed",
    ...upstream.filter((method) => AUTHENTICATION_METHODS.includes(method)),
  ] as AuthenticationMethod[]),
];

async function refuse(context: ServiceContext, client: Client, companyId: string, reason: CompanyCallbackError) {
  countSignIn("company_sso", reason === "account_disabled" ? "account_disabled" : "factor_failed");
  await context.stores.audit.record({
    type: "sign_in.failed",
    ipAddress: client.ipAddress,
    details: { method: "company_sso", companyId, reason },
  });
}

type Answer =
  { ok: true; sso: CompanySso; identity: CompanySignInIdentity } | { ok: false; error: CompanyCallbackError };

/** The provider's answer as an identity, or the page error its failure shows (logged with what happened). */
async function answerOf(context: ServiceContext, kept: KeptCompanySignIn, callback: URL): Promise<Answer> {
  const sso = await context.stores.companySso.find(kept.pending.companyId);
  if (!sso?.enabled) return { ok: false, error: "sso_refused" };
  try {
    const config = await companySsoConfigOf(sso, context);
    return { ok: true, sso, identity: await finishCompanySignIn(config, kept.pending, callback, context.config) };
  } catch (error) {
    if (!(error instanceof CompanySignInFailed)) throw error;
    const { code, message, upstreamError, detail } = error;
    logger.info({ companyId: sso.companyId, code, reason: message, upstreamError, detail }, "company sign-in failed");
    return { ok: false, error: loginPageErrorOf(error) };
  }
}

export async function finishCompanySignInAt(
  context: ServiceContext,
  request: Request,
  client: Client,
): Promise<CompanyCallbackResult> {
  const kept = readCompanySignIn(request, context.config.secretKey);
  // A connection test (lib/rights/company-sso-test.ts) is answered on its own path and never signs anybody in.
  if (!kept || kept.test) return { ok: false, error: "sso_expired" };
  const { returnUrl, pending } = kept;
  const refused = async (error: CompanyCallbackError) => {
    await refuse(context, client, pending.companyId, error);
    return { ok: false as const, error, returnUrl };
  };
  const answer = await answerOf(context, kept, new URL(request.url));
  if (!answer.ok) return refused(answer.error);
  const { identity } = answer;
  const account = await companyAccountFor(context, answer.sso, identity);
  if (!account.ok && account.error === "sso_link_offered") {
    const { userId, email } = account;
    const link = { issuer: identity.issuer, subject: identity.subject, companyId: pending.companyId };
    // Only the methods OptiGate knows travel in the cookie: the provider's list is unbounded.
    const amr = federatedAmr(identity.amr);
    const offered = { identity: link, userId, email, amr, sid: identity.sid, createdAt: Date.now() };
    return { ok: false, error: account.error, link: offered, returnUrl };
  }
  if (!account.ok) return refused(account.error);
  await context.stores.companySso.touchIdentity(identity);
  const signedIn = await enterSignedIn(context, account.userId, client, {
    factor: "company_sso",
    amr: federatedAmr(identity.amr),
    details: { method: "company_sso", companyId: pending.companyId, issuer: identity.issuer, created: account.created },
    upstream: { issuer: identity.issuer, sid: identity.sid },
  });
  return { ...signedIn, returnUrl };
}
