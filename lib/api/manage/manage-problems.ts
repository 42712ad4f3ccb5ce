/**
 * The management API's problems from the errors of the rules it shares with the pages: a refused right is 403, and
 * each registry's error codes map to the problem a client can act on (404, 409, 412, 422). A rule's message, which the
 * pages show too, is the detail. Errors of any other kind stay server errors.
 */
import { ClientMetadataError } from "@/lib/admin/client-metadata-error";
import { ClientRegistryError } from "@/lib/admin/client-registry";
import { CompanyMetadataError } from "@/lib/admin/company-metadata";
import { CompanyPeopleError } from "@/lib/admin/company-people";
import { CompanyRegistryError } from "@/lib/admin/company-registry";
import { CompanySsoMetadataError } from "@/lib/admin/company-sso-metadata";
import { CompanySsoError } from "@/lib/admin/company-sso-registry";
import { DomainVerificationError } from "@/lib/admin/domain-verification";
import { FederationRegistryError } from "@/lib/admin/federation-registry";
import { OutboxActionError } from "@/lib/admin/outbox-actions";
import { SigningKeyError } from "@/lib/admin/signing-key-registry";
import { InvitationError } from "@/lib/admin/invitations";
import { PartnerAccessError } from "@/lib/admin/partner-access";
import { PersonFieldError } from "@/lib/admin/person-fields";
import { TrustedIssuerError } from "@/lib/admin/trusted-issuer-metadata";
import { UserRegistryError } from "@/lib/admin/user-registry";
import { WebhookError } from "@/lib/admin/webhook-metadata";
import { ApiProblem, type ProblemType } from "@/lib/errors/api-problem";
import { DomainNameError } from "@/lib/http/domain-name";
import { AccessDenied } from "@/lib/rights/actor";

const RULE_ERRORS = [
  ClientMetadataError,
  ClientRegistryError,
  CompanyMetadataError,
  CompanyPeopleError,
  CompanyRegistryError,
  CompanySsoMetadataError,
  CompanySsoError,
  DomainNameError,
  DomainVerificationError,
  FederationRegistryError,
  OutboxActionError,
  SigningKeyError,
  InvitationError,
  PartnerAccessError,
  PersonFieldError,
  TrustedIssuerError,
  UserRegistryError,
  WebhookError,
];

/** Rule error codes that are not 422 unprocessable. */
const PROBLEM_OF_CODE: Record<string, ProblemType> = {
  not_found: "not-found",
  already_exists: "conflict",
  invalid_state: "conflict",
  changed: "precondition-failed",
  // An address that is someone's account, or invited by another company (only the operator is told).
  already_user: "conflict",
  invited_elsewhere: "conflict",
  // A person of another company is as if absent.
  not_in_company: "not-found",
};

export function manageProblemOf(error: unknown): ApiProblem | undefined {
  if (error instanceof ApiProblem) return error;
  if (error instanceof AccessDenied)
    return new ApiProblem(
      "forbidden",
      "This client may not act on this resource: a company's client manages its own company only, and no client " +
        "changes the operator company's people or sign-in, or a client with management scopes beyond its own.",
    );
  const rule = RULE_ERRORS.find((kind) => error instanceof kind);
  if (rule) {
    const { code, message } = error as InstanceType<typeof rule>;
    return new ApiProblem(PROBLEM_OF_CODE[code] ?? "unprocessable", message);
  }
  return undefined;
}
