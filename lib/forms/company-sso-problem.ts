/**
 * Why a company sign-in form of /portal/company was refused, as the page says it: a message key of
 * CompanySso.problems, the form field it belongs at, and what the check said (English, shown under the message). The
 * errors' codes and fields decide, never their messages.
 */
import { CompanySsoMetadataError } from "@/lib/admin/company-sso-metadata";
import { CompanySsoError } from "@/lib/admin/company-sso-registry";
import { DomainVerificationError } from "@/lib/admin/domain-verification";
import { DomainNameError } from "@/lib/http/domain-name";
import { formFieldOf, SsoSettingsFormError } from "@/lib/forms/company-sso-settings-form";
import type { CompanySsoAction } from "@/lib/forms/company-sso-outcome";

export interface CompanySsoProblem {
  problem: string;
  field?: string;
  detail?: string;
}

/** The provider's description refused at a field: one message per field, the claim names sharing theirs. */
function settingsProblem(error: CompanySsoMetadataError): CompanySsoProblem {
  const field = formFieldOf(error.field);
  if (!field) return { problem: "invalid_settings", detail: error.message };
  const problem = field.startsWith("claim_") ? "invalid_claim_name" : `invalid_${field}`;
  return { problem, field, detail: error.message };
}

function registryProblem(error: CompanySsoError, action: CompanySsoAction): CompanySsoProblem {
  if (error.code === "secret_not_kept") return { problem: "secret_not_kept", field: "client_secret" };
  if (error.field === "client_secret") return { problem: "secret_needed", field: "client_secret" };
  if (error.field === "claims.roles") return { problem: "role_not_for_company", field: "roles", detail: error.message };
  if (error.code === "domain_taken") return { problem: "domain_taken", field: "domain" };
  if (error.code === "too_many_domains") return { problem: "too_many_domains", field: "domain", detail: error.message };
  if (error.code === "not_found") return { problem: action.startsWith("domain-") ? "domain_not_found" : "no_provider" };
  return { problem: "invalid_settings", detail: error.message };
}

/** The refusal as the page shows it, or undefined when the error is not a refusal (a bug: let it through). */
export function companySsoProblemOf(error: unknown, action: CompanySsoAction): CompanySsoProblem | undefined {
  if (error instanceof CompanySsoMetadataError) return settingsProblem(error);
  if (error instanceof SsoSettingsFormError) return { problem: "roles_format", field: "roles", detail: error.message };
  if (error instanceof CompanySsoError) return registryProblem(error, action);
  if (error instanceof DomainNameError) return { problem: "invalid_domain", field: "domain", detail: error.message };
  if (error instanceof DomainVerificationError) return { problem: error.code, detail: error.message };
  return undefined;
}
