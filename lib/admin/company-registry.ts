/**
 * Companies as the operator manages them (`companies add|update|show|list`): each change is one
 * transaction with its audit event (lib/store/company-store.ts). A company's kind does not change once it has one:
 * its users' rights, catalogs and registrations depend on it.
 */
import { randomUUID } from "node:crypto";
import { OptiGateError } from "@/lib/errors/optigate-error";
import type { CompanyRegistration } from "@/lib/admin/company-metadata";
import { type CompanyRecord, type CompanyWrite } from "@/lib/store/company-store";
import type { Stores } from "@/lib/store/stores";
import { forgetUser } from "@/lib/store/user-store";
import { signInNoticesOn } from "@/lib/session/sign-in-notice-rule";

export class CompanyRegistryError extends OptiGateError<"not_found" | "already_exists" | "invalid_state"> {
  constructor(
    readonly code: "not_found" | "already_exists" | "invalid_state",
    message: string,
  ) {
    super(message);
  }
}

/** A company as the CLI prints it: the fields of its file, and when it was created. */
export interface CompanyJson {
  id: string;
  kind: string;
  name: string;
  country: string | null;
  /** false: its users cannot sign in, and a supplier's catalogs are not published */
  active: boolean;
  /** everyone in the company must use a second factor */
  require_second_factor: boolean;
  /** its people are mailed of sign-ins from browsers new to their accounts (its switch, or its kind's default) */
  sign_in_notices: boolean;
  supplier_id?: string;
  name1?: string | null;
  name2?: string | null;
  portal_url?: string | null;
  web_services?: { type: string; name: string; url: string; priority: number }[];
  created_at: string;
}

function companyJson(company: CompanyRecord): CompanyJson {
  const { id, kind, name, country, active } = company;
  const shown: CompanyJson = {
    id,
    kind,
    name,
    country,
    active,
    require_second_factor: company.requireSecondFactor,
    sign_in_notices: signInNoticesOn(company),
    created_at: company.createdAt.toISOString(),
  };
  if (kind !== "supplier") return shown;
  return {
    ...shown,
    supplier_id: company.supplierId ?? undefined,
    name1: company.name1,
    name2: company.name2,
    portal_url: company.portalUrl,
    web_services: company.webServices.map(({ type, name, url, priority }) => ({ type, name, url, priority })),
  };
}

function written(registration: CompanyRegistration): CompanyWrite {
  const { kind, name, country, supplier, webServices } = registration;
  return { kind, name, country, ...(supplier ?? {}), webServices };
}

function refusedKey(outcome: "id_taken" | "supplier_id_taken", id: string, registration: CompanyRegistration): never {
  if (outcome === "id_taken") throw new CompanyRegistryError("already_exists", `company "${id}" exists already`);
  throw new CompanyRegistryError(
    "already_exists",
    `supplier_id "${registration.supplier?.supplierId}" belongs to another company`,
  );
}

export async function addCompany(stores: Stores, registration: CompanyRegistration, by?: string): Promise<CompanyJson> {
  const id = registration.id ?? randomUUID();
  const outcome = await stores.companies.insert(id, written(registration), by);
  if (typeof outcome === "string") refusedKey(outcome, id, registration);
  return companyJson(outcome);
}

/** Replaces a company's description (the file names all of it); its id and kind stay. */
export async function updateCompany(
  stores: Stores,
  id: string,
  registration: CompanyRegistration,
  by?: string,
): Promise<CompanyJson> {
  if (registration.id !== undefined && registration.id !== id)
    throw new CompanyRegistryError("invalid_state", `the file names company "${registration.id}", not "${id}"`);
  const existing = await stores.companies.findRecord(id);
  if (!existing) throw new CompanyRegistryError("not_found", `there is no company "${id}"`);
  if (existing.kind !== registration.kind)
    throw new CompanyRegistryError(
      "invalid_state",
      `kind cannot change (company "${id}" is ${existing.kind}); its users, catalogs and registrations depend on it`,
    );
  const outcome = await stores.companies.replace(id, written(registration), by);
  if (outcome === "not_found") throw new CompanyRegistryError("not_found", `there is no company "${id}"`);
  if (typeof outcome === "string") refusedKey(outcome, id, registration);
  return companyJson(outcome);
}

export async function showCompany(stores: Stores, id: string): Promise<CompanyJson> {
  const company = await stores.companies.findRecord(id);
  if (!company) throw new CompanyRegistryError("not_found", `there is no company "${id}"`);
  return companyJson(company);
}

export async function listCompanies(stores: Stores): Promise<CompanyJson[]> {
  return (await stores.companies.listRecords()).map(companyJson);
}

/**
 * Deactivates a company and its users: signed out everywhere, refresh tokens revoked, their applications told. Never
 * the operator company, for anyone: its people run the platform, and no one would be left to activate it again.
 */
export async function deactivate(
  stores: Stores,
  id: string,
  announceLogout: (sessionIds: string[]) => Promise<void>,
  by?: string,
): Promise<{ company: CompanyJson; users: number }> {
  // A company's kind never changes, so the check holds until the deactivation below.
  if ((await stores.companies.find(id))?.kind === "operator")
    throw new CompanyRegistryError(
      "invalid_state",
      `company "${id}" is the operator: it cannot be deactivated, as its people run the platform`,
    );
  const outcome = await stores.companies.deactivate(id, by);
  if (outcome === "not_found") throw new CompanyRegistryError("not_found", `there is no company "${id}"`);
  if (outcome === "unchanged") throw new CompanyRegistryError("invalid_state", `company "${id}" is inactive already`);
  await announceLogout(outcome.sessionIds);
  return { company: await showCompany(stores, id), users: outcome.userIds.length };
}

/**
 * Requires a second factor of everyone in the company, or stops requiring it. Switching it on ends the sessions that
 * gave none (their applications are told) and leaves refresh tokens from a password alone unable to refresh; users
 * without a factor are led to set one up. What an operator requires, only an operator lifts.
 */
export async function requireSecondFactor(
  stores: Stores,
  id: string,
  change: { required: boolean; byOperator: boolean; by?: string; keepSessionId?: string },
  announceLogout: (sessionIds: string[]) => Promise<void>,
): Promise<CompanyJson> {
  const outcome = await stores.companies.saveSecondFactorRequirement(id, change);
  if (outcome === "not_found") throw new CompanyRegistryError("not_found", `there is no company "${id}"`);
  if (outcome === "operator_rule")
    throw new CompanyRegistryError(
      "invalid_state",
      "the operator requires a second factor here: only they can lift it",
    );
  forgetUser(); // the cached users carry their company's rule
  await announceLogout(outcome.endedSessionIds);
  return showCompany(stores, id);
}

/** Mails the company's people of sign-ins from browsers new to their accounts, or stops it, audited as `by`'s. */
export async function switchSignInNotices(stores: Stores, id: string, on: boolean, by?: string): Promise<CompanyJson> {
  if (!(await stores.companies.saveSignInNotices(id, on, by)))
    throw new CompanyRegistryError("not_found", `there is no company "${id}"`);
  return showCompany(stores, id);
}

/** Activates a company and the users deactivated with it. */
export async function activate(
  stores: Stores,
  id: string,
  by?: string,
): Promise<{ company: CompanyJson; users: number }> {
  const outcome = await stores.companies.activate(id, by);
  if (outcome === "not_found") throw new CompanyRegistryError("not_found", `there is no company "${id}"`);
  if (outcome === "unchanged") throw new CompanyRegistryError("invalid_state", `company "${id}" is active already`);
  return { company: await showCompany(stores, id), users: outcome };
}
