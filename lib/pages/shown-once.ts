/** What a form's POST left for the page after it (lib/http/flash-cookies.ts), read once. */
import "server-only";
import { cookies, headers } from "next/headers";
import { getConfig } from "@/lib/config";
import {
  ADMIN_FORM_COOKIE,
  ADMIN_WEBHOOK_COOKIE,
  COMPANY_WEBHOOK_COOKIE,
  DEVELOPER_FORM_COOKIE,
  DEVELOPER_SECRET_COOKIE,
  DEVELOPER_TRIAL_COOKIE,
  flashHeader,
  COMPANY_FORM_COOKIE,
  COMPANY_RECORD_COOKIE,
  COMPANY_SSO_COOKIE,
  COMPANY_CLIENT_COOKIE,
  IMPORT_RESULT_COOKIE,
  INVITATION_FORM_COOKIE,
  LOGIN_USERNAME_COOKIE,
  NEW_SECRET_COOKIE,
  RECOVERY_CODES_COOKIE,
  REGISTRATION_FORM_COOKIE,
} from "@/lib/http/flash-cookies";
import { unsealedCookieValue } from "@/lib/http/sealed-cookie";
import type { NewSecretShown } from "@/lib/forms/admin-submission";
import type { AdminFormOutcome } from "@/lib/forms/admin-form-problem";
import type { NewPartnerSecret } from "@/lib/forms/developer-submission";
import type { ShownImportResult } from "@/lib/forms/catalog-submission";
import type { RefusedRegistrationForm } from "@/lib/forms/refused-registration-form";
import type { RefusedInvitationForm } from "@/lib/forms/invitation-submission";
import type { CompanyFormOutcome } from "@/lib/forms/company-submission";
import type { RefusedCompanyForm } from "@/lib/forms/company-record-submission";
import type { CompanySsoOutcome } from "@/lib/forms/company-sso-outcome";
import type { CompanyClientOutcome } from "@/lib/forms/company-client-submission";
import type { WebhookFormOutcome } from "@/lib/forms/webhook-form";
import type { DeveloperTrialResult } from "@/lib/rights/developer-trial";

/** The one-time cookie's value as the proxy handed it on (it has deleted the cookie itself). */
async function flash<T>(name: string): Promise<T | undefined> {
  return unsealedCookieValue<T>(name, (await headers()).get(flashHeader(name)) ?? undefined, getConfig().secretKey);
}

/** A client secret just created, shown once on the client's page. */
export const newSecretShownOnce = () => flash<NewSecretShown>(NEW_SECRET_COOKIE);

/** Why the operator's last form was refused, with what was typed into it. */
export const refusedAdminForm = () => flash<AdminFormOutcome>(ADMIN_FORM_COOKIE);

/** The partner portal's registration form refused, with what was typed (the operator form's outcome, same shape). */
export const refusedDeveloperForm = () => flash<AdminFormOutcome>(DEVELOPER_FORM_COOKIE);

/** The secret a developer just created on the partner portal, with its application (shown this once). */
export const newPartnerSecret = () => flash<NewPartnerSecret>(DEVELOPER_SECRET_COOKIE);

/** What a developer's "Try sign-in" gave: the decoded tokens and the userinfo answer, or the error. */
export const developerTrialResult = () => flash<DeveloperTrialResult>(DEVELOPER_TRIAL_COOKIE);

/** Recovery codes just made (a first factor, or renewed), shown this once. */
export const newRecoveryCodes = () => flash<string[]>(RECOVERY_CODES_COOKIE);

/** The outcome of the last catalog upload. */
export const lastImportResult = () => flash<ShownImportResult>(IMPORT_RESULT_COOKIE);

/** A supplier registration form refused at a field, with what was typed into it. */
export const refusedRegistrationForm = () => flash<RefusedRegistrationForm>(REGISTRATION_FORM_COOKIE);

/** The invitation form refused at a field, with the names typed. */
export const refusedInvitationForm = () => flash<RefusedInvitationForm>(INVITATION_FORM_COOKIE);

/** What the last form of a company's people page did, or why it was refused. */
export const companyFormOutcome = () => flash<CompanyFormOutcome>(COMPANY_FORM_COOKIE);

/** What the last company sign-in form or connection test of the company page did, or why it was refused. */
export const companySsoOutcome = () => flash<CompanySsoOutcome>(COMPANY_SSO_COOKIE);

/** What the last company API client form did (a new secret, shown this once), or why it was refused. */
export const companyClientOutcome = () => flash<CompanyClientOutcome>(COMPANY_CLIENT_COOKIE);

/** What the operator's last webhook form did (a new secret, shown this once), or why it was refused. */
export const adminWebhookOutcome = () => flash<WebhookFormOutcome>(ADMIN_WEBHOOK_COOKIE);

/** What a company administrator's last webhook form did (a new secret, shown this once), or why it was refused. */
export const companyWebhookOutcome = () => flash<WebhookFormOutcome>(COMPANY_WEBHOOK_COOKIE);

/** The operator's company form refused, with the reason and what was typed. */
export const refusedCompanyForm = () => flash<RefusedCompanyForm>(COMPANY_RECORD_COOKIE);

/** The user name typed before a failed sign-in, so that the login page keeps it. */
export const rememberedUsername = async () => (await cookies()).get(LOGIN_USERNAME_COOKIE)?.value;
