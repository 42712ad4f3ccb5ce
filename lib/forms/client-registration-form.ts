/**
 * The operator's client registration form, by kind of client. Its fields become the same RFC 7591 client metadata
 * the JSON view submits, so lib/admin/client-metadata.ts checks both and the rules live in one place.
 */
import { DEFAULT_LOCALE, LOCALES, type Locale } from "@/lib/i18n/locales";
import { DEVICE_CODE_GRANT } from "@/lib/oauth/grant-types";

/** `device`: a public client that signs in with the device grant only (RFC 8628); the metadata makes it a native one. */
export const FORM_CLIENT_KINDS = ["browser", "native", "web", "device", "backend"] as const;
export type FormClientKind = (typeof FORM_CLIENT_KINDS)[number];

/** The languages besides English a client's name may be given in on the form: one optional field each. */
export const NAME_LANGUAGES = LOCALES.filter((locale) => locale !== DEFAULT_LOCALE);
/** The field of the name in one of those languages: `client_name_fr` is the metadata's `client_name#fr`. */
export type TranslatedNameField = `client_name_${Locale}`;
export const translatedNameField = (locale: Locale): TranslatedNameField => `client_name_${locale}`;

/**
 * The form's fields besides the kind; list fields take one entry a line, `scope` is space-separated, and
 * `translated_names` stands for one TranslatedNameField per language of NAME_LANGUAGES.
 */
export type RegistrationField =
  | "client_name"
  | "translated_names"
  | "client_id"
  | "redirect_uris"
  | "post_logout_redirect_uris"
  | "allowed_cors_origins"
  | "offline_access"
  | "scope"
  | "company_id"
  | "allowed_resources"
  | "dpop_bound_access_tokens"
  | "require_pushed_authorization_requests";

/** What was typed into the form (or the JSON view's `metadata`), as the page shows it again after a refusal. */
export type RegistrationDraft = Partial<Record<RegistrationField | TranslatedNameField | "kind" | "metadata", string>>;

/** Checkboxes: ticked, the form posts "on" and the metadata says `true`; not ticked, the metadata's default applies. */
export const CHECKBOX_FIELDS: readonly RegistrationField[] = [
  "offline_access",
  "dpop_bound_access_tokens",
  "require_pushed_authorization_requests",
];

/** What a client that sends people to sign in may require of itself: DPoP-bound tokens, pushed requests. */
const SIGN_IN_REQUIREMENTS: readonly RegistrationField[] = [
  "dpop_bound_access_tokens",
  "require_pushed_authorization_requests",
];

/** The fields of native apps and server web applications alike. */
const APP_FIELDS: readonly RegistrationField[] = [
  "client_name",
  "translated_names",
  "client_id",
  "redirect_uris",
  "post_logout_redirect_uris",
  "offline_access",
  "scope",
  "allowed_resources",
  ...SIGN_IN_REQUIREMENTS,
];

/** Which fields each kind of client has: the others are not shown and not submitted. */
export const FIELDS_BY_KIND: Record<FormClientKind, readonly RegistrationField[]> = {
  browser: [
    "client_name",
    "translated_names",
    "client_id",
    "redirect_uris",
    "post_logout_redirect_uris",
    "allowed_cors_origins",
    "scope",
    "allowed_resources",
    ...SIGN_IN_REQUIREMENTS,
  ],
  native: APP_FIELDS,
  web: APP_FIELDS,
  // A device sends nobody to a redirect URI and has no pages of its own to push requests from.
  device: [
    "client_name",
    "translated_names",
    "client_id",
    "offline_access",
    "scope",
    "allowed_resources",
    "dpop_bound_access_tokens",
  ],
  // A backend client sends no authorization requests, so it has nothing to push (RFC 9126 §6).
  backend: [
    "client_name",
    "translated_names",
    "client_id",
    "scope",
    "allowed_resources",
    "company_id",
    "dpop_bound_access_tokens",
  ],
};

export const isFormClientKind = (value: string | undefined): value is FormClientKind =>
  (FORM_CLIENT_KINDS as readonly (string | undefined)[]).includes(value);

/** The draft the form posted: its kind's fields, with the scopes (one checkbox each) joined. */
export function registrationDraft(form: URLSearchParams, kind: FormClientKind): RegistrationDraft {
  const draft: RegistrationDraft = { kind };
  const fields = FIELDS_BY_KIND[kind].flatMap((field) =>
    field === "translated_names" ? NAME_LANGUAGES.map(translatedNameField) : [field],
  );
  for (const field of fields) {
    const value = field === "scope" ? form.getAll("scope").join(" ") : (form.get(field) ?? "");
    if (value !== "") draft[field] = value;
  }
  return draft;
}

const lines = (text: string | undefined) =>
  (text ?? "")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

/** The RFC 7591 metadata the draft stands for; empty fields are left out, so that the metadata's defaults apply. */
export function metadataOfDraft(draft: RegistrationDraft, kind: FormClientKind): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  const text = (field: RegistrationField | TranslatedNameField, key: string = field) => {
    const value = draft[field]?.trim();
    if (value) metadata[key] = value;
  };
  const list = (field: RegistrationField) => {
    const entries = lines(draft[field]);
    if (entries.length > 0) metadata[field] = entries;
  };
  text("client_id");
  text("client_name");
  for (const locale of NAME_LANGUAGES) text(translatedNameField(locale), `client_name#${locale}`);
  if (kind === "browser") metadata.token_endpoint_auth_method = "none";
  if (kind === "native") metadata.application_type = "native";
  if (kind === "backend") metadata.grant_types = ["client_credentials"];
  if (kind === "device")
    Object.assign(metadata, { grant_types: [DEVICE_CODE_GRANT], token_endpoint_auth_method: "none" });
  list("redirect_uris");
  list("post_logout_redirect_uris");
  list("allowed_cors_origins");
  list("allowed_resources");
  for (const field of CHECKBOX_FIELDS) if (draft[field]) metadata[field] = true;
  text("scope");
  text("company_id");
  return metadata;
}
