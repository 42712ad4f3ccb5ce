/**
 * POST /interaction/login: the login form, in two steps. The first sends the email address alone: where its domain
 * has its company's own sign-in, the person goes to the company's provider (lib/rights/company-sign-in.ts); else the
 * page asks for the password. The second, or a form that sends both at once, checks the CSRF token (under attack also
 * a proof of work: lib/proof-of-work/proof-gate.ts), signs in (lib/rights/sign-in.ts) and continues the flow with 303
 * (lib/forms/signed-in-redirect.ts): to the second step for a user with a second factor, to enrolment where the
 * company requires one. Back from a company's provider with an
 * address that has an account, the password also links the two (lib/rights/company-sso-link.ts).
 */
import { PAGES } from "@/lib/http/paths";
import { MAX_USERNAME_LENGTH } from "@/lib/config/policy";
import { signIn } from "@/lib/rights/sign-in";
import { companySignInStep } from "@/lib/forms/company-sign-in-step";
import { clientAddress } from "@/lib/http/client-address";
import { expireCookie, isSecureOrigin } from "@/lib/http/cookies";
import { LOGIN_USERNAME_COOKIE, rememberedUsernameCookie } from "@/lib/http/flash-cookies";
import { endSsoLinkCookie, readSsoLink } from "@/lib/oauth/company-sso/link-cookie";
import { signInAndLink } from "@/lib/rights/company-sso-link";
import { readForm } from "@/lib/http/form-body";
import { safeLocalPath } from "@/lib/http/local-path";
import { pageUrl, seeOther } from "@/lib/http/see-other";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";
import { signedInRedirect } from "@/lib/forms/signed-in-redirect";
import { passProofGate, proofFormError, PROOF_OF_WORK_FIELD } from "@/lib/proof-of-work/proof-gate";

export async function handleLoginSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { config } = context;
  const form = await readForm(request);
  const returnUrl = safeLocalPath(form.get("returnUrl")) ?? PAGES.home;
  const email = (form.get("username") ?? "").trim().toLowerCase();
  const secure = isSecureOrigin(config.publicUrl);
  const rememberName = rememberedUsernameCookie(email, config.publicUrl);
  // The first step sends no password field at all; an empty one is a second step left blank.
  const password = form.get("password");
  const step = password === null ? {} : { step: "password" };
  const back = (error: string, extra: Record<string, string> = {}) =>
    seeOther(
      pageUrl(PAGES.login, { returnUrl, error, ...step, ...extra }),
      email && email.length <= MAX_USERNAME_LENGTH ? [rememberName] : [],
    );

  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl)) return back("form_expired");
  if (password === null) {
    if (!email || email.length > MAX_USERNAME_LENGTH) return back("missing_email");
    const next = await companySignInStep(request, context, { email }, returnUrl);
    if (next.ok) return seeOther(next.location, [next.cookie, rememberName]);
    if (next.error) return back(next.error);
    return seeOther(pageUrl(PAGES.login, { returnUrl, step: "password" }), [rememberName]);
  }
  if (!email || !password) return back("missing_fields");
  const ipAddress = clientAddress(request, config.trustedProxies);
  const proof = form.get(PROOF_OF_WORK_FIELD);
  const gate = await passProofGate(context, "login", { address: ipAddress, account: email }, proof);
  if (gate !== "open") return back(proofFormError(gate));

  const attempt = {
    username: email,
    password,
    ipAddress,
    userAgent: request.headers.get("user-agent") ?? undefined,
  };
  // Back from the company's provider with an address that has an account: the password links the two.
  const link = readSsoLink(request, config.secretKey);
  const linking = link?.email === email;
  const result = linking ? await signInAndLink(context, attempt, link) : await signIn(context, attempt);
  // SSO-only: back to the first step, which leads to the company's provider.
  if (!result.ok && result.reason === "sso_only")
    return seeOther(pageUrl(PAGES.login, { returnUrl, error: result.reason }), [rememberName]);
  if (!result.ok)
    return result.reason === "throttled"
      ? back("throttled", { minutes: String(Math.ceil(result.retryAfterSeconds / 60)) })
      : back(result.reason);
  const forgetName = expireCookie(LOGIN_USERNAME_COOKIE, { secure, path: PAGES.login });
  const linked = linking ? [endSsoLinkCookie(config.publicUrl)] : [];
  return signedInRedirect(result, returnUrl, config, [forgetName, ...linked]);
}
