/**
 * Who is acting: nobody, or a signed-in user with their company as the database has it now. Every function of the
 * data-access layer that is not public takes an Actor and checks its rights itself (requireUser, requireOperator,
 * requireSupplier), so no page, layout, form or route can reach the data without the check. The actor also carries
 * the service context it was resolved in.
 */
import { OptiGateError } from "@/lib/errors/optigate-error";
import "server-only";
import type { Company } from "@/lib/store/models/user";
import type { CustomerLink } from "@/lib/catalog/registrations/customer-links";
import type { ServiceContext } from "@/lib/service-context";
import { findActiveSession, type ActiveSession } from "@/lib/session/login-session";
import { readSessionCookie } from "@/lib/session/session-cookie";
import { ACR_MFA, meetsAcr } from "@/lib/session/authentication-level";
import type { Locale } from "@/lib/i18n/locales";
import { localeOfRequest } from "@/lib/i18n/request-locale";

export type Actor =
  { kind: "anonymous"; context: ServiceContext } | SignedInUser | SecondFactorOwed | TokenActor | ManagementClient;

export type ActingCompany = Pick<Company, "id" | "name" | "kind" | "supplierId" | "requireSecondFactor">;

interface SessionActor {
  context: ServiceContext;
  session: ActiveSession;
  company: ActingCompany;
}

export interface SignedInUser extends SessionActor {
  kind: "user";
}

/**
 * A session of a person whose company requires a second factor that the session has not given (a password alone, or
 * a session from before the rule). It reaches only what OPEN_WHILE_SECOND_FACTOR_OWED names, never a user's rights.
 */
interface SecondFactorOwed extends SessionActor {
  kind: "second_factor_owed";
}

/** The person of a session, whether or not it owes a second factor. */
export type SessionPerson = SignedInUser | SecondFactorOwed;

/**
 * The caller of the platform API: an access token OptiGate issued, with the rights of the company of its user as the
 * database has them now (or of the company the operator gave a backend client), not as the token says.
 */
export interface TokenActor {
  kind: "token";
  context: ServiceContext;
  clientId: string;
  scopes: ReadonlySet<string>;
  /** absent when the client acts for itself (client credentials) */
  userId?: string;
  /** how the token's user signed in (the token's `acr`), for routes that need the mfa level */
  acr?: string;
  company?: ActingCompany;
  /** the company's active registrations by supplier company, read with it */
  customerLinks?: Map<string, CustomerLink>;
}

/**
 * The caller of the management API (lib/rights/management-client.ts): a client acting for itself with the management
 * scopes its registration holds now. Without a company it acts for the whole platform, as an operator does; with one,
 * as that company's administrator does, for that company alone. Every other rights check refuses it.
 */
export interface ManagementClient {
  kind: "manager";
  context: ServiceContext;
  clientId: string;
  scopes: ReadonlySet<string>;
  company?: ActingCompany;
}

export interface SupplierUser extends SignedInUser {
  supplier: { companyId: string; supplierId: string; name: string };
}

/** The actor may not do this: not signed in, or signed in without the right. Pages turn it into a login or a 403. */
export class AccessDenied extends OptiGateError<"sign_in_required" | "second_factor_required" | "forbidden"> {
  constructor(readonly code: "sign_in_required" | "second_factor_required" | "forbidden") {
    super(
      code === "sign_in_required"
        ? "sign in first"
        : code === "second_factor_required"
          ? "the company requires a second factor first"
          : "not allowed for this user",
    );
  }
}

/**
 * The actor behind a session cookie value: a user whose session is current and who is active, or nobody. This is
 * the one place that decides whether a session owes its company's second factor.
 */
export async function actorOfSessionCookie(context: ServiceContext, cookieValue: string | undefined): Promise<Actor> {
  const session = await findActiveSession(context.stores.loginSessions, cookieValue);
  if (!session) return { kind: "anonymous", context };
  const { id, name, kind, supplierId, requireSecondFactor } = session.user.company;
  const company = { id, name, kind, supplierId, requireSecondFactor };
  const owed = requireSecondFactor && !meetsAcr(session.amr, ACR_MFA);
  return { kind: owed ? "second_factor_owed" : "user", context, session, company };
}

/** The actor of a form POST or route request: the user of its session cookie, or nobody. */
export function actorOfRequest(context: ServiceContext, request: Request): Promise<Actor> {
  return actorOfSessionCookie(context, readSessionCookie(request, context.config.publicUrl));
}

export function requireUser(actor: Actor): SignedInUser {
  if (actor.kind === "second_factor_owed") throw new AccessDenied("second_factor_required");
  if (actor.kind !== "user") throw new AccessDenied("sign_in_required");
  return actor;
}

/**
 * All that a session owing its company's second factor may do: set up a factor and see its own sessions (the
 * security page), give a factor (the second step) and sign out. Everything else refuses it through requireUser.
 */
const OPEN_WHILE_SECOND_FACTOR_OWED = ["security_page", "second_step", "sign_out"] as const;
export type OpenWhileSecondFactorOwed = (typeof OPEN_WHILE_SECOND_FACTOR_OWED)[number];

/** The session's person for one of the steps open to a session that owes a second factor (and to any user). */
export function requireSessionFor(actor: Actor, step: OpenWhileSecondFactorOwed): SessionPerson {
  if (actor.kind === "second_factor_owed" && OPEN_WHILE_SECOND_FACTOR_OWED.includes(step)) return actor;
  return requireUser(actor);
}

export const isOperator = (actor: Actor): boolean => actor.kind === "user" && actor.company.kind === "operator";

/** Users of an operator company. */
export function requireOperator(actor: Actor): SignedInUser {
  const user = requireUser(actor);
  if (!isOperator(user)) throw new AccessDenied("forbidden");
  return user;
}

/** Who may act on the whole platform, and whom the audit trail names for it. */
export interface PlatformAdmin {
  context: ServiceContext;
  /** the operator's user id; absent for a management client, which the API's audit attribution names */
  by?: string;
}

/**
 * An operator, or an operator's management client holding `scope` (`manage.companies.write`): the one check of the
 * pages and the management API alike for what only the platform's administrators may do.
 */
export function requirePlatformAdmin(actor: Actor, scope: string): PlatformAdmin {
  if (actor.kind === "manager") {
    if (actor.company || !actor.scopes.has(scope)) throw new AccessDenied("forbidden");
    return { context: actor.context };
  }
  const user = requireOperator(actor);
  return { context: user.context, by: user.session.user.id };
}

/**
 * Reading a platform resource: an operator, or an operator's management client holding the read scope or the write
 * scope (a client that may change a resource reads it too, as each change answers with what it changed).
 */
export function requirePlatformReader(actor: Actor, scopes: { read: string; write: string }): PlatformAdmin {
  const writer = actor.kind === "manager" && actor.scopes.has(scopes.write);
  return requirePlatformAdmin(actor, writer ? scopes.write : scopes.read);
}

/** The company whose rights the actor has: a user's company, or a token's; none for anyone else. */
export function actingCompanyOf(actor: Actor): ActingCompany | undefined {
  return actor.kind === "user" || actor.kind === "token" ? actor.company : undefined;
}

/** The company an actor must act for: anonymous callers are sent to sign in, companyless tokens refused. */
export function requireCompany(actor: Actor): ActingCompany {
  const company = actor.kind === "token" ? actor.company : requireUser(actor).company;
  if (!company) throw new AccessDenied("forbidden");
  return company;
}

/** The supplier company a user publishes for: their own, when it is a supplier. */
export function supplierOf(actor: Actor): SupplierUser["supplier"] | undefined {
  if (actor.kind !== "user" || actor.company.kind !== "supplier" || !actor.company.supplierId) return undefined;
  return { companyId: actor.company.id, supplierId: actor.company.supplierId, name: actor.company.name };
}

/** Users of a supplier company, acting for that company only. */
export function requireSupplier(actor: Actor): SupplierUser {
  const user = requireUser(actor);
  const supplier = supplierOf(user);
  if (!supplier) throw new AccessDenied("forbidden");
  return { ...user, supplier };
}

/** The language of the page a request comes from, as the pages choose it, with the person's preference. */
export const pageLanguageOf = (actor: Actor, request: Request): Locale =>
  localeOfRequest(request, {
    userPreference:
      actor.kind === "user" || actor.kind === "second_factor_owed" ? actor.session.user.preferredLanguage : null,
  });
