/**
 * What /portal/company shows after one of its company sign-in forms or a connection test: what was done, or why it
 * was refused (a message key of CompanySso.problems, the field, what was typed), and a test's report. It travels in
 * a sealed one-time cookie, and a browser keeps a cookie of about 4 KB at most: the report is cut short here, and
 * what was typed is left out when the whole would not fit.
 */
import { PAGES } from "@/lib/http/paths";
import { COMPANY_SSO_COOKIE } from "@/lib/http/flash-cookies";
import { sealedCookie } from "@/lib/http/sealed-cookie";
import { seeOther } from "@/lib/http/see-other";
import type { TypedSsoSettings } from "@/lib/forms/company-sso-settings-form";
import type { CompanySsoTestResult } from "@/lib/rights/company-sso-test";

export const COMPANY_SSO_ACTIONS = [
  "settings",
  "enable",
  "disable",
  "sso-only-on",
  "sso-only-off",
  "domain-add",
  "domain-verify",
  "domain-remove",
  "test",
] as const;
export type CompanySsoAction = (typeof COMPANY_SSO_ACTIONS)[number];

/** What the provider said about the person in a test, as shown: never a token. */
export interface ShownIdentity {
  issuer: string;
  subject: string;
  email?: string;
  emailVerified: boolean;
  givenName?: string;
  familyName?: string;
  groups?: string[];
  /** how many groups were left out */
  moreGroups?: number;
  amr?: string[];
  acr?: string;
}

export type CompanySsoTestReport =
  | { ok: true; identity: ShownIdentity; emailDomainVerified: boolean; recorded: boolean }
  | { ok: false; failure: string; upstreamError?: string; reason?: string };

export interface CompanySsoOutcome {
  action: CompanySsoAction | "";
  problem?: string;
  field?: string;
  /** what the check said in English, shown under the localized message */
  detail?: string;
  domain?: string;
  typed?: TypedSsoSettings;
  test?: CompanySsoTestReport;
}

const MAX_TEXT = 120;
const MAX_GROUPS = 12;
const MAX_GROUP_TEXT = 60;
/** The outcome as JSON; sealing adds about a third. */
const MAX_OUTCOME_LENGTH = 2600;

const cut = (text: string | undefined, length = MAX_TEXT) =>
  text === undefined || text.length <= length ? text : `${text.slice(0, length - 1)}…`;

function shownIdentity(identity: Extract<CompanySsoTestResult, { ok: true }>["identity"]): ShownIdentity {
  const { issuer, subject, email, emailVerified, givenName, familyName, groups, amr, acr } = identity;
  const shown: ShownIdentity = {
    issuer: cut(issuer)!,
    subject: cut(subject)!,
    email: cut(email),
    emailVerified,
    givenName: cut(givenName),
    familyName: cut(familyName),
    amr: amr?.slice(0, 8).map((method) => cut(method, 20)!),
    acr: cut(acr),
  };
  if (!groups) return shown;
  const more = groups.length - MAX_GROUPS;
  const listed = groups.slice(0, MAX_GROUPS).map((group) => cut(group, MAX_GROUP_TEXT)!);
  return { ...shown, groups: listed, ...(more > 0 ? { moreGroups: more } : {}) };
}

/** A test's result as the page reports it. */
export function testReportOf(result: CompanySsoTestResult): CompanySsoTestReport {
  if (!result.ok) return { ...result, reason: cut(result.reason, 300) };
  const { identity, emailDomainVerified, recorded } = result;
  return { ok: true, identity: shownIdentity(identity), emailDomainVerified, recorded };
}

/** Where on the page the outcome belongs. */
function anchorOf(action: CompanySsoOutcome["action"]): string {
  if (action === "test") return "sso-test";
  if (action === "settings") return "sso-settings";
  return action.startsWith("domain-") ? "sso-domains" : "company-sso";
}

/** The page after the form, with the outcome in its one-time cookie (and any other cookies to set). */
export function companySsoAnswer(
  outcome: CompanySsoOutcome,
  config: { secretKey: string; publicUrl: string },
  cookies: string[] = [],
): Response {
  const fits = JSON.stringify(outcome).length <= MAX_OUTCOME_LENGTH;
  const shown = fits ? outcome : { ...outcome, typed: undefined };
  const cookie = sealedCookie(COMPANY_SSO_COOKIE, shown, { ...config, path: PAGES.company });
  return seeOther(`${PAGES.company}#${anchorOf(outcome.action)}`, [...cookies, cookie]);
}
