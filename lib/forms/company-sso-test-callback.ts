/**
 * A connection test back at GET /login/sso/callback (lib/rights/company-sso-test.ts): its report goes to
 * /portal/company in the page's one-time cookie. A test that is not the signed-in administrator's (another account
 * signed in meanwhile, or none) is refused with a 403 and reports nothing. The kept test's cookie ends either way.
 */
import { plainRefusal } from "@/lib/http/see-other";
import { endCompanySignInCookie, type KeptCompanySignIn } from "@/lib/oauth/company-sso/sign-in-cookie";
import { finishCompanySsoTest } from "@/lib/rights/company-sso-test";
import type { ServiceContext } from "@/lib/service-context";
import { companySsoAnswer, testReportOf } from "@/lib/forms/company-sso-outcome";

export async function answerCompanySsoTest(
  request: Request,
  context: ServiceContext,
  kept: KeptCompanySignIn,
): Promise<Response> {
  const result = await finishCompanySsoTest(context, request, kept);
  const end = endCompanySignInCookie(context.config.publicUrl);
  if (!result.ok && result.failure === "not_your_test") {
    const refused = plainRefusal(403, "This connection test was started by another account.");
    refused.headers.append("Set-Cookie", end);
    return refused;
  }
  return companySsoAnswer({ action: "test", test: testReportOf(result) }, context.config, [end]);
}
