/**
 * POST /interaction/company/sso: the company sign-in forms of /portal/company, for the company's administrators: the
 * provider's settings, sign-in at the provider and "SSO only" on and off, the email domains, and "test connection",
 * which goes on to the provider. The rights are checked in lib/rights/company-sso-*.ts; this turns what happened, or
 * why it was refused, into the page after it (lib/forms/company-sso-outcome.ts). Anyone else gets a plain 403: no
 * page offers them these forms.
 */
import { PAGES } from "@/lib/http/paths";
import { readForm } from "@/lib/http/form-body";
import { pageUrl, plainRefusal, seeOther } from "@/lib/http/see-other";
import { CompanySignInFailed } from "@/lib/oauth/company-sso/company-sign-in-failed";
import { AccessDenied, actorOfRequest, pageLanguageOf, type Actor } from "@/lib/rights/actor";
import { claimCompanyDomain, giveUpCompanyDomain, verifyOwnCompanyDomain } from "@/lib/rights/company-sso-domains";
import { saveCompanySsoSettings, switchCompanySsoSetting } from "@/lib/rights/company-sso-settings";
import { startCompanySsoTest, testFailureOf } from "@/lib/rights/company-sso-test";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";
import {
  COMPANY_SSO_ACTIONS,
  companySsoAnswer,
  testReportOf,
  type CompanySsoAction,
  type CompanySsoOutcome,
} from "@/lib/forms/company-sso-outcome";
import { companySsoProblemOf } from "@/lib/forms/company-sso-problem";
import { providerDescription, typedSettings } from "@/lib/forms/company-sso-settings-form";

/** Longer than any domain (253 characters), short enough to show back. */
const MAX_DOMAIN_INPUT = 300;

interface Submission {
  actor: Actor;
  form: URLSearchParams;
  request: Request;
}

/** What each action does: the page's outcome, or (a test) the way to the provider. */
const ACTIONS: Record<CompanySsoAction, (submission: Submission) => Promise<CompanySsoOutcome | Response>> = {
  settings: async ({ actor, form }) => {
    await saveCompanySsoSettings(actor, providerDescription(form));
    return { action: "settings" };
  },
  enable: async ({ actor }) => switched(actor, "enable", "enabled", true),
  disable: async ({ actor }) => switched(actor, "disable", "enabled", false),
  "sso-only-on": async ({ actor }) => switched(actor, "sso-only-on", "ssoOnly", true),
  "sso-only-off": async ({ actor }) => switched(actor, "sso-only-off", "ssoOnly", false),
  "domain-add": async ({ actor, form }) => ({
    action: "domain-add",
    domain: (await claimCompanyDomain(actor, domainOf(form))).domain,
  }),
  "domain-verify": async ({ actor, form }) => ({
    action: "domain-verify",
    domain: (await verifyOwnCompanyDomain(actor, domainOf(form))).domain,
  }),
  "domain-remove": async ({ actor, form }) => ({
    action: "domain-remove",
    domain: (await giveUpCompanyDomain(actor, domainOf(form))).domain,
  }),
  test: async ({ actor, request }) => {
    const { location, cookie } = await startCompanySsoTest(actor, pageLanguageOf(actor, request));
    return seeOther(location, [cookie]);
  },
};

const domainOf = (form: URLSearchParams) => (form.get("domain") ?? "").slice(0, MAX_DOMAIN_INPUT);

async function switched(actor: Actor, action: CompanySsoAction, which: "enabled" | "ssoOnly", on: boolean) {
  await switchCompanySsoSetting(actor, which, on);
  return { action };
}

/** The refusal as the page shows it, with what was typed into the form refused. */
function refusal(error: unknown, action: CompanySsoAction, form: URLSearchParams): CompanySsoOutcome | undefined {
  // A test the provider cannot even be asked for is reported as a test that failed.
  if (error instanceof CompanySignInFailed) return { action, test: testReportOf(testFailureOf(error)) };
  const refused = companySsoProblemOf(error, action);
  if (!refused) return undefined;
  if (action === "settings") return { action, ...refused, typed: typedSettings(form) };
  return action.startsWith("domain-") ? { action, ...refused, domain: domainOf(form) } : { action, ...refused };
}

export async function handleCompanySsoSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { config } = context;
  const actor = await actorOfRequest(context, request);
  if (actor.kind !== "user") return seeOther(pageUrl(PAGES.login, { returnUrl: PAGES.company }));
  const form = await readForm(request);
  const action = COMPANY_SSO_ACTIONS.find((known) => known === form.get("action"));
  const answer = (outcome: CompanySsoOutcome) => companySsoAnswer(outcome, config);
  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl))
    return answer({ action: action ?? "", problem: "form_expired" });
  if (!action) return answer({ action: "", problem: "unknown_action" });
  try {
    const done = await ACTIONS[action]({ actor, form, request });
    return done instanceof Response ? done : answer(done);
  } catch (error) {
    if (error instanceof AccessDenied) return plainRefusal(403, "Forbidden");
    const refused = refusal(error, action, form);
    if (refused) return answer(refused);
    throw error;
  }
}
