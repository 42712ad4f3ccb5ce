/**
 * What people read in the audit trail instead of its recorded names: each event type and family, each detail name
 * (lib/store/models/audit-details.ts) and each detail value from a closed set has a message in every language. A
 * name without one (an event of a later version, say) is written out in words, never shown as a raw key; a value
 * outside its set (an id, an address, a provider's own words) is shown as recorded.
 */
import { COMPANY_KINDS } from "@/lib/admin/company-metadata";
import { ROLES } from "@/lib/admin/person-fields";
import { REGISTRATION_STATUSES, SUBSCRIPTION_STATUSES } from "@/lib/catalog/registrations/registration-rules";
import { RESENDABLE_MAIL_KINDS } from "@/lib/mail/outbox";
import { FEDERATION_GRANTS } from "@/lib/oauth/grant-types";
import type { AuditDetailKey } from "@/lib/store/models/audit-details";
import { AUTHENTICATION_METHODS } from "@/lib/store/models/authentication";

/** Values of one closed set and where their messages are (some are shared with the pages that set them). */
interface Vocabulary {
  values: readonly string[];
  message: (value: string) => string;
}

const own = (set: string, values: readonly string[]): Vocabulary => ({
  values,
  message: (value) => `Admin.auditValues.${set}.${value}`,
});
const CLIENT_KINDS: Vocabulary = {
  values: ["browser", "native", "web", "backend", "device"],
  message: (kind) => `Admin.kinds.${kind}.name`,
};
const ROLE_NAMES: Vocabulary = { values: ROLES, message: (role) => `CompanyPeople.roles.${role}` };
const REGISTRATION_STATES: Vocabulary = {
  values: REGISTRATION_STATUSES,
  message: (status) => `Suppliers.status_${status}`,
};
const METHODS = own("amr", AUTHENTICATION_METHODS);

/** The detail values from a closed set, by the detail that holds them. */
export const AUDIT_DETAIL_VALUES: { [K in AuditDetailKey]?: readonly Vocabulary[] } = {
  amr: [METHODS],
  secondFactor: [METHODS],
  by: [own("by", ["operator", "registration"])],
  companyKind: [{ values: COMPANY_KINDS, message: (kind) => `Admin.companyKinds.${kind}` }],
  deviceType: [own("deviceType", ["singleDevice", "multiDevice"])],
  error: [own("error", ["invalid_request", "invalid_grant", "invalid_scope", "invalid_target", "unauthorized_client"])],
  // The grant types are URNs: their messages are named by the last part.
  grantType: [{ values: FEDERATION_GRANTS, message: (urn) => `Admin.auditValues.grantType.${urn.split(":").pop()}` }],
  keys: [own("keys", ["inline"])],
  kind: [CLIENT_KINDS, own("kind", RESENDABLE_MAIL_KINDS)],
  method: [own("method", ["code", "company_sso"])],
  reason: [
    own("reason", [
      "invalid_credentials",
      "account_disabled",
      "sso_unreachable",
      "sso_denied",
      "sso_refused",
      "sso_expired",
      "sso_domain_not_verified",
      "sso_account_exists",
    ]),
  ],
  role: [ROLE_NAMES],
  from: [ROLE_NAMES, REGISTRATION_STATES],
  to: [ROLE_NAMES, REGISTRATION_STATES],
  status: [own("status", ["pending", ...SUBSCRIPTION_STATUSES])],
  step: [own("step", ["link_sent", "password_set"])],
  subject: [own("subject", ["email", "link"])],
  verifiedBy: [own("verifiedBy", ["dns", "operator"])],
};

/** A recorded name in words: "sign_in_disowned" and "signInNotices" as "sign in disowned", "sign in notices". */
const inWords = (name: string) =>
  name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/[_.]/g, " ")
    .toLowerCase();

/** The part of a translator (next-intl's, at the root of the messages) that the labels use. */
export interface Translator {
  (key: string): string;
  has(key: string): boolean;
}

const labelOr = (t: Translator, message: string, name: string) => (t.has(message) ? t(message) : inWords(name));

export const auditEventMessage = (type: string) => `Admin.auditEvents.${type}`;
export const auditFamilyMessage = (family: string) => `Admin.auditFamilies.${family}`;
export const auditDetailMessage = (key: string) => `Admin.auditDetails.${key}`;

export const auditEventName = (t: Translator, type: string) => labelOr(t, auditEventMessage(type), type);
/** A family of event types by its prefix ("user" for user.invited, user.joined …). */
export const auditFamilyName = (t: Translator, family: string) => labelOr(t, auditFamilyMessage(family), family);
export const auditDetailName = (t: Translator, key: string) => labelOr(t, auditDetailMessage(key), key);

/** The message of a detail's value, when the value is one of its closed set. */
export function auditValueMessage(key: string, value: string): string | undefined {
  const vocabularies = Object.hasOwn(AUDIT_DETAIL_VALUES, key) ? AUDIT_DETAIL_VALUES[key as AuditDetailKey]! : [];
  return vocabularies.find((vocabulary) => vocabulary.values.includes(value))?.message(value);
}
