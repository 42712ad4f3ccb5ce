/**
 * Why an operator form was refused, as the page after it says so: a message of the page's own (Admin.problems.*,
 * localized), the input it concerns (its element id, so the page shows the message there) and the value refused.
 * It travels to the page in a sealed one-time cookie together with what was typed (never in the URL).
 */
import { ClientMetadataError, ClientRegistryError } from "@/lib/rights/operator-clients";
import type { PartnerRuleRefusal } from "@/lib/admin/client-metadata-error";
import {
  NAME_LANGUAGES,
  translatedNameField,
  type RegistrationDraft,
  type RegistrationField,
} from "@/lib/forms/client-registration-form";

type AdminProblemKey =
  | Exclude<RegistrationField, "translated_names">
  | "expired"
  | "unknownAction"
  | "clientIdTaken"
  | "scopeNotAllowed"
  | "plainHttp"
  | "resourceNotAllowed"
  | "notFound"
  | "date"
  | "expiryPast"
  | "description"
  | "alreadyDisabled"
  | "noSecrets"
  | "json"
  | "metadata"
  | "reasonMissing"
  | "nothingToReview"
  | "changedMeanwhile"
  | "expiryTooFar"
  | "tooManySecrets"
  | "notFoundMessage"
  | "outboxNotFailed"
  | "outboxOneTimeLink"
  | "outboxErased"
  | "testRecipient"
  | "testLanguage";

export interface AdminFormProblem {
  key: AdminProblemKey;
  /** The id of the input the problem is shown at; none: the page shows it above the form. */
  field?: string;
  /** The value that was refused, quoted in the message. */
  value?: string;
  /** The validator's own words, for the JSON view, whose reader writes the metadata's field names. */
  reason?: string;
}

/** What a refused operator form leaves for the page after it. */
export interface AdminFormOutcome {
  action: string;
  problem: AdminFormProblem;
  draft?: RegistrationDraft;
}

const MAX_VALUE_LENGTH = 120;
const MAX_REASON_LENGTH = 300;
/** The sealed cookie grows by about a third; this keeps it well inside a browser's 4 KB per cookie. */
const MAX_OUTCOME_BYTES = 2500;

const bounded = (text: string | undefined, limit: number) =>
  text !== undefined && text.length > limit ? `${text.slice(0, limit - 1)}…` : text;

/** The form fields the validator's messages name first (lib/admin/client-metadata*.ts). */
const FORM_FIELD_OF_METADATA: Record<string, AdminProblemKey> = {
  client_id: "client_id",
  client_name: "client_name",
  redirect_uris: "redirect_uris",
  post_logout_redirect_uris: "post_logout_redirect_uris",
  allowed_cors_origins: "allowed_cors_origins",
  offline_access: "offline_access",
  scope: "scope",
  company_id: "company_id",
  allowed_resources: "allowed_resources",
  dpop_bound_access_tokens: "dpop_bound_access_tokens",
  require_pushed_authorization_requests: "require_pushed_authorization_requests",
};

/** A software vendor's own rules, each with its sentence. */
const PARTNER_RULE_KEYS: Record<PartnerRuleRefusal["rule"], AdminProblemKey> = {
  client_id_taken: "clientIdTaken",
  scope_not_allowed: "scopeNotAllowed",
  plain_http: "plainHttp",
  resource_not_allowed: "resourceNotAllowed",
};

const quotedValue = (message: string) => /"([^"]*)"/.exec(message)?.[1];

/** A refusal of the registration form: at the field the validator's message begins with, where there is one. */
function formProblem(error: ClientMetadataError | ClientRegistryError): AdminFormProblem {
  if (error instanceof ClientRegistryError && error.code === "already_exists")
    return { key: "clientIdTaken", field: "client_id", value: quotedValue(error.message) };
  if (error instanceof ClientMetadataError && error.partnerRule) {
    const { rule, field, value } = error.partnerRule;
    return { key: PARTNER_RULE_KEYS[rule], field, value };
  }
  const named = /^([a-z_]+(?:#[a-z-]+)?)/i.exec(error.message)?.[1]?.toLowerCase() ?? "";
  const language = NAME_LANGUAGES.find((locale) => named === `client_name#${locale}`);
  if (language) return { key: "client_name", field: translatedNameField(language), value: quotedValue(error.message) };
  const field = FORM_FIELD_OF_METADATA[named];
  return field ? { key: field, field, value: quotedValue(error.message) } : { key: "metadata", reason: error.message };
}

/** A refusal of the JSON view (registration or edit): at the text box, in the validator's words. */
function metadataProblem(error: ClientMetadataError | ClientRegistryError): AdminFormProblem {
  if (error instanceof ClientMetadataError && error.message.startsWith("the client metadata is not valid JSON"))
    return { key: "json", field: "metadata" };
  return { key: "metadata", field: "metadata", reason: error.message };
}

/** A refusal of a secret's form: `inputs` names the ids of the inputs of the form that was sent. */
function secretProblem(
  error: ClientRegistryError | ClientMetadataError,
  inputs: { description?: string; expires?: string },
) {
  if (error instanceof ClientRegistryError && error.code === "not_found") return { key: "notFound" } as const;
  if (/description/.test(error.message)) return { key: "description", field: inputs.description } as const;
  if (/within two years/.test(error.message)) return { key: "expiryTooFar", field: inputs.expires } as const;
  if (/expiry/.test(error.message)) return { key: "expiryPast", field: inputs.expires } as const;
  if (/is not a date/.test(error.message)) return { key: "date", field: inputs.expires } as const;
  if (/already disabled/.test(error.message)) return { key: "alreadyDisabled" } as const;
  if (/usable secrets/.test(error.message)) return { key: "tooManySecrets" } as const;
  return { key: "noSecrets" } as const;
}

/** The problem a form's refusal shows, by the action that was refused. */
export function problemOf(
  action: string,
  error: ClientMetadataError | ClientRegistryError,
  form: { byForm: boolean; secretId?: string },
): AdminFormProblem {
  switch (action) {
    case "register":
      return form.byForm ? formProblem(error) : metadataProblem(error);
    case "update":
      return metadataProblem(error);
    case "secret-add":
      return secretProblem(error, { description: "new-description", expires: "new-expires" });
    case "approve":
    case "reject":
      // A vendor's change may no longer fit its allowance: the validator says why, in its words.
      if (error instanceof ClientMetadataError) return { key: "metadata", reason: error.message };
      if (error.code === "changed") return { key: "changedMeanwhile" };
      return { key: error.code === "not_found" ? "notFound" : "nothingToReview" };
    default:
      return secretProblem(error, { expires: form.secretId ? `expires-${form.secretId}` : undefined });
  }
}

/** The outcome bounded for its cookie: long values and reasons are cut, and a draft too long to keep is left out. */
export function boundedOutcome(outcome: AdminFormOutcome): AdminFormOutcome {
  const problem = {
    ...outcome.problem,
    value: bounded(outcome.problem.value, MAX_VALUE_LENGTH),
    reason: bounded(outcome.problem.reason, MAX_REASON_LENGTH),
  };
  const kept = { ...outcome, problem };
  return Buffer.byteLength(JSON.stringify(kept)) <= MAX_OUTCOME_BYTES ? kept : { action: outcome.action, problem };
}
