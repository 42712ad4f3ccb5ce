/**
 * The person a company's provider signed in, in OptiGate's terms: the claims the registration maps (email, names,
 * groups; the standard claims by default), the assurance the provider reports (amr, acr) and its session (sid, which
 * its back-channel logout names). The ID token is signed and wins; userinfo fills what it lacks, as providers such as
 * Okta and Entra ID keep ID tokens thin.
 */
import { MAX_SUBJECT_LENGTH } from "@/lib/config/policy";
import type { CompanySsoConfig } from "@/lib/oauth/company-sso/company-sso-config";

export interface CompanySignInIdentity {
  /** The issuer of the ID token: for an Entra template, the company's tenant's. */
  issuer: string;
  subject: string;
  email?: string;
  /** The provider vouches for the address: its standard `email` claim, with `email_verified` true. */
  emailVerified: boolean;
  givenName?: string;
  familyName?: string;
  groups?: string[];
  amr?: string[];
  acr?: string;
  hd?: string;
  tid?: string;
  /** The provider's session, kept with OptiGate's for its back-channel logout (one too long to keep is left out). */
  sid?: string;
}

type Claims = Record<string, unknown>;

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
const keptSid = (sid: string | undefined) => (sid !== undefined && sid.length <= MAX_SUBJECT_LENGTH ? sid : undefined);

function texts(value: unknown): string[] | undefined {
  if (typeof value === "string") return [value];
  return Array.isArray(value) ? value.filter((each): each is string => typeof each === "string") : undefined;
}

function claimNames(config: CompanySsoConfig) {
  const { email = "email", given_name = "given_name", family_name = "family_name", groups } = config.claims;
  return { email, givenName: given_name, familyName: family_name, groups };
}

/** Whether the ID token lacks the email or a name the registration maps: then userinfo is asked. */
export function lacksProfileClaims(config: CompanySsoConfig, idToken: Claims): boolean {
  const { email, givenName, familyName } = claimNames(config);
  return [email, givenName, familyName].some((name) => idToken[name] === undefined);
}

/** The identity in the ID token's claims (already checked) and, for what they lack, userinfo's (same subject). */
export function upstreamIdentity(
  config: CompanySsoConfig,
  idToken: Claims,
  userinfo: Claims = {},
): CompanySignInIdentity {
  const names = claimNames(config);
  const claims = { ...userinfo, ...idToken };
  // email_verified speaks of the standard email claim, and of the one in the same document.
  const emailSource = idToken[names.email] !== undefined ? idToken : userinfo;
  const found = {
    email: text(claims[names.email]),
    givenName: text(claims[names.givenName]),
    familyName: text(claims[names.familyName]),
    groups: names.groups === undefined ? undefined : texts(claims[names.groups]),
    amr: texts(idToken.amr),
    acr: text(idToken.acr),
    hd: text(idToken.hd),
    tid: text(idToken.tid),
    sid: keptSid(text(idToken.sid)),
  };
  return {
    issuer: idToken.iss as string,
    subject: idToken.sub as string,
    emailVerified: names.email === "email" && found.email !== undefined && emailSource.email_verified === true,
    ...Object.fromEntries(Object.entries(found).filter(([, value]) => value !== undefined)),
  };
}
