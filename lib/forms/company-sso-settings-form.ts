/**
 * The provider form of /portal/company as the description `companies sso set` reads from its file, so that both are
 * judged by one parser (lib/admin/company-sso-metadata.ts): empty fields are left out (the defaults, or the stored
 * secret, stand), and the group mapping is typed one `group=role` a line. What was typed goes back to a refused form,
 * bounded, and never the secret.
 */
import { OptiGateError } from "@/lib/errors/optigate-error";

/** The form's fields (their names in the HTML) and the description field each fills; the secret is not among them. */
const DESCRIPTION_FIELDS = {
  issuer: "issuer",
  client_id: "client_id",
  token_endpoint_auth_method: "token_endpoint_auth_method",
  scope: "scope",
  claim_email: "claims.email",
  claim_given_name: "claims.given_name",
  claim_family_name: "claims.family_name",
  claim_groups: "claims.groups",
  roles: "claims.roles",
  hosted_domain: "hosted_domain",
  tenant_id: "tenant_id",
} as const;

export type SsoSettingsField = keyof typeof DESCRIPTION_FIELDS | "client_secret";

/** What was typed into the form, field by field, to show it again when it was refused. */
export type TypedSsoSettings = Partial<Record<keyof typeof DESCRIPTION_FIELDS, string>>;

/** A mapping line that is not `group=role`. */
export class SsoSettingsFormError extends OptiGateError<"roles_format"> {
  readonly code = "roles_format";
}

/** Enough for the issuers, client ids and scopes of real providers; the outcome's cookie bounds the whole. */
const MAX_TYPED_LENGTH = 300;

/** The form field a description field is typed in ("claims.email" is claim_email), if the form has one. */
export function formFieldOf(descriptionField: string): SsoSettingsField | undefined {
  if (descriptionField === "client_secret") return "client_secret";
  const found = Object.entries(DESCRIPTION_FIELDS).find(([, field]) => field === descriptionField);
  return found?.[0] as SsoSettingsField | undefined;
}

/** Lines of `group=role` as {group: role}; blank lines are skipped, and a group may hold "=" (a role never does). */
function roleMapping(text: string): Record<string, string> {
  const mapping: Record<string, string> = {};
  for (const line of text.split(/\r?\n/).map((each) => each.trim())) {
    if (line === "") continue;
    const at = line.lastIndexOf("=");
    if (at <= 0) throw new SsoSettingsFormError(`"${line.slice(0, 80)}" is not a line of the form group=role`);
    mapping[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return mapping;
}

const given = (entries: [string, string | undefined][]) =>
  Object.fromEntries(entries.filter((entry): entry is [string, string] => entry[1] !== undefined));

/** The provider the form describes, as parseCompanySso takes it; throws SsoSettingsFormError for the mapping. */
export function providerDescription(form: URLSearchParams): Record<string, unknown> {
  const optional = (name: string) => form.get(name)?.trim() || undefined;
  return {
    ...given([
      ["issuer", form.get("issuer")?.trim() ?? ""],
      ["client_id", form.get("client_id")?.trim() ?? ""],
      ["client_secret", optional("client_secret")],
      ["token_endpoint_auth_method", optional("token_endpoint_auth_method")],
      ["scope", optional("scope")],
      ["hosted_domain", optional("hosted_domain")],
      ["tenant_id", optional("tenant_id")],
    ]),
    claims: {
      ...given([
        ["email", optional("claim_email")],
        ["given_name", optional("claim_given_name")],
        ["family_name", optional("claim_family_name")],
        ["groups", optional("claim_groups")],
      ]),
      roles: roleMapping(form.get("roles") ?? ""),
    },
  };
}

/** What was typed, each field cut short. */
export function typedSettings(form: URLSearchParams): TypedSsoSettings {
  return given(Object.keys(DESCRIPTION_FIELDS).map((name) => [name, form.get(name)?.slice(0, MAX_TYPED_LENGTH)]));
}
