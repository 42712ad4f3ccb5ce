/**
 * The management API's schemas of people and invitations (user-routes.ts, invitation-routes.ts): a user as
 * `users list` prints them with their id, a company's people as its page shows them, and invitations.
 */
import { MAX_USERNAME_LENGTH } from "@/lib/config/policy";
import { LOCALES } from "@/lib/i18n/locales";

const ROLES = ["user", "admin", "developer"];
const dateTime = { type: "string", format: "date-time" };
const nullableText = { type: ["string", "null"] };

/** What `users list` shows of a person, users and invited people alike. */
const PERSON_PROPERTIES = {
  email: { type: "string" },
  company: { type: "string" },
  role: { enum: ROLES },
  status: { enum: ["invited", "active", "deactivated", "locked"] },
  given_name: { type: "string" },
  family_name: { type: "string" },
  locked_until: dateTime,
  last_sign_in_at: dateTime,
  created_at: dateTime,
};
const PERSON_REQUIRED = ["email", "company", "role", "status", "given_name", "family_name", "created_at"];

export const USER_SCHEMAS = {
  User: {
    type: "object",
    description: "A user; `locked_until` while sign-in is locked after failed attempts.",
    required: ["id", ...PERSON_REQUIRED],
    additionalProperties: false,
    properties: { id: { type: "string" }, ...PERSON_PROPERTIES },
  },
  CompanyPerson: {
    type: "object",
    description: "A user (user_id) or someone invited who has not joined yet (invitation_id, status invited).",
    required: ["user_id", "invitation_id", ...PERSON_REQUIRED],
    additionalProperties: false,
    properties: {
      user_id: nullableText,
      invitation_id: nullableText,
      ...PERSON_PROPERTIES,
      invitation_expires_at: dateTime,
    },
  },
  UserChange: {
    type: "object",
    required: ["role"],
    additionalProperties: false,
    properties: { role: { enum: ROLES, description: "developer is for software vendors' staff only" } },
  },
  SecondFactorReset: {
    type: "object",
    required: ["user_id", "removed"],
    additionalProperties: false,
    properties: {
      user_id: { type: "string" },
      removed: { type: "integer", minimum: 0, description: "passkeys, authenticator app and recovery codes removed" },
    },
  },
};

const NAME = { type: "string", minLength: 1, maxLength: 100 };
const ASKED_PROPERTIES = {
  email: { type: "string", maxLength: MAX_USERNAME_LENGTH },
  role: { enum: ROLES, default: "user" },
  language: { enum: [...LOCALES], default: "en", description: "of the mail and the invitation page" },
  given_name: { ...NAME, description: "offered on the invitation page; the person may change it" },
  family_name: NAME,
};

export const INVITATION_SCHEMAS = {
  InvitationRequest: {
    type: "object",
    required: ["email"],
    additionalProperties: false,
    properties: ASKED_PROPERTIES,
  },
  InvitationSent: {
    type: "object",
    description:
      "The invitation mail is on its way (`resent`: an earlier link of the address stopped working). A company's own " +
      "client gets this answer for any valid address, also one that is someone's account elsewhere, which it is not " +
      "told; list the invitations by email to find the invitation.",
    required: ["email", "company", "role", "language", "given_name", "family_name", "resent"],
    additionalProperties: false,
    properties: {
      ...ASKED_PROPERTIES,
      company: { type: "string" },
      given_name: { type: ["string", "null"] },
      family_name: { type: ["string", "null"] },
      resent: { type: "boolean" },
    },
  },
  Invitation: {
    type: "object",
    description: "A pending invitation; an expired one waits to be sent again or revoked.",
    required: [
      "id",
      "email",
      "company",
      "role",
      "language",
      "given_name",
      "family_name",
      "status",
      "created_at",
      "expires_at",
    ],
    additionalProperties: false,
    properties: {
      id: { type: "string" },
      email: { type: "string" },
      company: { type: "string" },
      role: { enum: ROLES },
      language: { type: "string" },
      given_name: nullableText,
      family_name: nullableText,
      status: { enum: ["pending", "expired"] },
      created_at: dateTime,
      expires_at: dateTime,
    },
  },
};
