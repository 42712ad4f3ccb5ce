import { isSecureOrigin, serializeCookie } from "@/lib/http/cookies";
import { PAGES } from "@/lib/http/paths";
/**
 * One-time cookies through which a form's POST hands its outcome to the page after it: a new client secret, an
 * operator form's or a registration form's refusal with what was typed, a catalog import's result (sealed:
 * lib/http/sealed-cookie.ts). The pages' proxy takes them out of the request for the page and deletes them in the
 * same answer, so a reload does not show them again: a secret is shown exactly once.
 */

export const NEW_SECRET_COOKIE = "optigate_new_secret";
/** Why an operator form was refused, with what was typed, so that the page shows it again (never in the URL). */
export const ADMIN_FORM_COOKIE = "optigate_admin_form";
export const IMPORT_RESULT_COOKIE = "optigate_catalog_import";
/** A supplier registration form refused at a field, with what was typed. */
export const REGISTRATION_FORM_COOKIE = "optigate_registration_form";
/** An invitation form refused at a field, with the names typed (never the password). */
export const INVITATION_FORM_COOKIE = "optigate_invitation_form";
/** What a company page's form did to a person, or why it was refused, with what was typed. */
export const COMPANY_FORM_COOKIE = "optigate_company_form";
/** What a company sign-in form or connection test on the company page did, or why it was refused. */
export const COMPANY_SSO_COOKIE = "optigate_company_sso";
/** What a company API client form did (with a new secret, shown once) or why it was refused. */
export const COMPANY_CLIENT_COOKIE = "optigate_company_client";
/** What an operator's webhook form did (with a new secret, shown once) or why it was refused, with what was typed. */
export const ADMIN_WEBHOOK_COOKIE = "optigate_admin_webhook";
/** The same for a company administrator's webhook form on the company page. */
export const COMPANY_WEBHOOK_COOKIE = "optigate_company_webhook";
/** An operator's company form refused, with what was typed. */
export const COMPANY_RECORD_COOKIE = "optigate_company_record";
/** The partner portal's registration refused, with what was typed, or the application just registered. */
export const DEVELOPER_FORM_COOKIE = "optigate_developer_form";
/** A secret a software vendor's developer just created, shown once on the partner portal. */
export const DEVELOPER_SECRET_COOKIE = "optigate_developer_secret";
/** A developer's "Try sign-in" on the partner portal: the decoded tokens and the userinfo answer. */
export const DEVELOPER_TRIAL_COOKIE = "optigate_developer_trial_result";
/** Recovery codes just made, shown once on the security page. */
export const RECOVERY_CODES_COOKIE = "optigate_recovery_codes";
/** Not one-time: the user name typed before a failed sign-in, kept five minutes for the login page. */
export const LOGIN_USERNAME_COOKIE = "optigate_login_username";

export const rememberedUsernameCookie = (email: string, publicUrl: string) =>
  serializeCookie(LOGIN_USERNAME_COOKIE, email, {
    secure: isSecureOrigin(publicUrl),
    path: PAGES.login,
    maxAgeSeconds: 300,
  });

/** Each one-time cookie with the path it is set on (the path of the pages that show it). */
export const FLASH_COOKIES = [
  { name: NEW_SECRET_COOKIE, path: PAGES.admin },
  { name: ADMIN_FORM_COOKIE, path: PAGES.admin },
  { name: IMPORT_RESULT_COOKIE, path: PAGES.catalogs },
  { name: REGISTRATION_FORM_COOKIE, path: PAGES.suppliers },
  { name: INVITATION_FORM_COOKIE, path: PAGES.invitation },
  { name: COMPANY_FORM_COOKIE, path: "/" },
  { name: COMPANY_SSO_COOKIE, path: PAGES.company },
  { name: COMPANY_CLIENT_COOKIE, path: PAGES.company },
  { name: ADMIN_WEBHOOK_COOKIE, path: PAGES.adminWebhooks },
  { name: COMPANY_WEBHOOK_COOKIE, path: PAGES.company },
  { name: COMPANY_RECORD_COOKIE, path: PAGES.adminCompanies },
  { name: DEVELOPER_FORM_COOKIE, path: PAGES.developer },
  { name: DEVELOPER_SECRET_COOKIE, path: PAGES.developer },
  { name: DEVELOPER_TRIAL_COOKIE, path: PAGES.developer },
  { name: RECOVERY_CODES_COOKIE, path: PAGES.security },
] as const;

/** The request header in which the proxy hands a one-time cookie's value to the page. */
export const flashHeader = (cookie: string) => `x-optigate-flash-${cookie.replace(/_/g, "-")}`;
