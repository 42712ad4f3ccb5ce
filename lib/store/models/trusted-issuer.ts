/** A trusted issuer of JWTs for users (RFC 7523, RFC 8693), as registered and as the federation grants read it. */
import type { JSONWebKeySet } from "jose";

/** Where an issuer's or a client's public keys are: inline, or at a URL fetched and cached. */
export type KeySource = { jwks: JSONWebKeySet } | { jwksUri: string };

/** "email": a verified email names the local user; "link": only subjects the operator linked. */
export type SubjectMapping = "email" | "link";

/** Whom an issuer may speak for: users of these companies, or with an email address in these domains. */
export interface IssuerReach {
  companies: string[];
  emailDomains: string[];
}

export interface TrustedIssuerRegistration {
  issuer: string;
  jwks: JSONWebKeySet | null;
  jwksUri: string | null;
  clientIds: string[];
  subjectMapping: SubjectMapping;
  reach: IssuerReach;
}

export interface TrustedIssuer {
  issuer: string;
  keys: KeySource;
  clientIds: ReadonlySet<string>;
  subjectMapping: SubjectMapping;
  /** null: registered before issuers had to name it; refused until the operator sets it. */
  reach: IssuerReach | null;
}

export interface TrustedIssuerSummary extends Omit<TrustedIssuerRegistration, "reach"> {
  /** null: refused until the operator names whom the issuer speaks for. */
  reach: IssuerReach | null;
  linkedSubjects: number;
  createdAt: Date;
  updatedAt: Date;
}
