/**
 * Supplier registrations for the actor's company: the API and the portal page read and change them only through
 * here, with the rules of lib/catalog/registrations (the actor's company decides what it sees and may change).
 */
import "server-only";
import { AccessDenied, requireCompany, type Actor } from "@/lib/rights/actor";
import type { RegistrationChange, RegistrationStatus } from "@/lib/catalog/registrations/registration-rules";
import * as supplierRegistrations from "@/lib/catalog/registrations/registrations";
import type { RegistrationPosition } from "@/lib/store/registration-store";

export {
  RegistrationError,
  type RegistrationChange,
  type RegistrationStatus,
} from "@/lib/catalog/registrations/registration-rules";
export type { RegistrationView } from "@/lib/catalog/registrations/registrations";
export type { RegistrationPosition } from "@/lib/store/registration-store";

function partyOf(actor: Actor): supplierRegistrations.RegistrationParty {
  const company = requireCompany(actor);
  if (actor.kind === "user") return { company, userId: actor.session.user.id };
  return {
    company,
    userId: actor.kind === "token" ? actor.userId : undefined,
    clientId: actor.kind === "token" ? actor.clientId : undefined,
  };
}

export function listRegistrations(
  actor: Actor,
  options: { status?: RegistrationStatus; after?: RegistrationPosition; limit: number },
): Promise<supplierRegistrations.RegistrationView[]> {
  return supplierRegistrations.listRegistrations(actor.context.stores, partyOf(actor), options);
}

export function getRegistration(actor: Actor, id: string): Promise<supplierRegistrations.RegistrationView> {
  return supplierRegistrations.getRegistration(actor.context.stores, partyOf(actor), id);
}

export function requestRegistration(
  actor: Actor,
  request: { supplierId: string; clientId: string; catalogs: string[] },
): Promise<supplierRegistrations.RegistrationView> {
  return supplierRegistrations.requestRegistration(actor.context.stores, partyOf(actor), request);
}

export function changeRegistration(
  actor: Actor,
  id: string,
  version: number | undefined,
  change: RegistrationChange,
): Promise<supplierRegistrations.RegistrationView> {
  return supplierRegistrations.changeRegistration(actor.context.stores, partyOf(actor), id, version, change);
}

const PORTAL_REGISTRATION_LIMIT = 500;

/** The portal page's view: which side the user's company is on, and its registrations (opticians and suppliers only). */
export async function registrationOverview(
  actor: Actor,
): Promise<{ side: "optician" | "supplier"; registrations: supplierRegistrations.RegistrationView[] }> {
  const company = requireCompany(actor);
  if (company.kind !== "eye_care_professional" && company.kind !== "supplier") throw new AccessDenied("forbidden");
  const registrations = await listRegistrations(actor, { limit: PORTAL_REGISTRATION_LIMIT });
  return { side: company.kind === "supplier" ? "supplier" : "optician", registrations };
}
