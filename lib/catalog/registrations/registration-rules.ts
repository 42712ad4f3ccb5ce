/**
 * Who may change a supplier registration, and how: the one set of rules behind the platform API and the portal page.
 *   optician company: request one (status requested); withdraw it while requested or active; change its
 *                     catalog subscriptions while requested or active
 *   supplier company: approve a requested one (active, with customer groups) or reject it; end an active one
 *                     (withdrawn)
 * Everyone else changes nothing. A change the party may never make is `forbidden` (403); one the party may make, but
 * not from the registration's current status, is `invalid` (422).
 */

import { OptiGateError } from "@/lib/errors/optigate-error";

export const REGISTRATION_STATUSES = ["requested", "active", "rejected", "withdrawn"] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];
export const SUBSCRIPTION_STATUSES = ["Subscribed", "Unsubscribed"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** requested and active registrations are open: one per optician and supplier. */
export const isOpen = (status: RegistrationStatus): boolean => status === "requested" || status === "active";

export const MAX_CUSTOMER_GROUP = 999_999_999;
export const MAX_CUSTOMER_GROUPS = 100;
export const MAX_SUBSCRIPTIONS = 200;
export const MAX_CLIENT_ID_LENGTH = 40;

export type RegistrationChange =
  | { status: "active"; customerGroups: number[] }
  | { status: "rejected" }
  | { status: "withdrawn" }
  | { subscriptions: { catalogId: string; status: SubscriptionStatus }[] };

export type RegistrationErrorCode =
  "not_found" | "forbidden" | "conflict" | "invalid" | "stale" | "precondition_required";

export class RegistrationError extends OptiGateError<RegistrationErrorCode> {
  constructor(
    readonly code: RegistrationErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The company a change is made for, and whether it is the registration's optician or supplier. */
export type RegistrationSide = "optician" | "supplier" | "other";

/** Checks a change against the rules; throws RegistrationError when it may not be made. */
export function checkChange(side: RegistrationSide, status: RegistrationStatus, change: RegistrationChange): void {
  if ("subscriptions" in change) {
    if (side !== "optician")
      throw new RegistrationError(
        "forbidden",
        "Only the optician changes the catalog subscriptions of a registration.",
      );
    if (!isOpen(status))
      throw new RegistrationError("invalid", `The subscriptions of a ${status} registration cannot be changed.`);
    return;
  }
  const target = change.status;
  if (target === "active" || target === "rejected") {
    if (side !== "supplier")
      throw new RegistrationError("forbidden", `Only the supplier sets a registration ${target}.`);
    if (status !== "requested")
      throw new RegistrationError(
        "invalid",
        `Only a requested registration can become ${target}; this one is ${status}.`,
      );
    return;
  }
  if (side === "optician") {
    if (!isOpen(status))
      throw new RegistrationError(
        "invalid",
        `Only a requested or active registration can be withdrawn; this one is ${status}.`,
      );
    return;
  }
  if (side === "supplier") {
    if (status !== "active")
      throw new RegistrationError(
        "invalid",
        `The supplier can end only an active registration; this one is ${status}.`,
      );
    return;
  }
  throw new RegistrationError("forbidden", "Only the optician or the supplier of a registration can change it.");
}

/**
 * Letters, marks, digits, punctuation, symbols and spaces only: no control or format characters (bidi overrides,
 * zero-width), no surrogates or noncharacters, none of which an XML document may carry or a person could read.
 */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]+$/u;

/** A customer number: printable, without leading or trailing spaces. */
export function checkClientId(clientId: string): void {
  if (
    clientId.length === 0 ||
    clientId.length > MAX_CLIENT_ID_LENGTH ||
    clientId.trim() !== clientId ||
    !PRINTABLE.test(clientId)
  ) {
    throw new RegistrationError(
      "invalid",
      `clientId must be the customer number at the supplier: 1 to ${MAX_CLIENT_ID_LENGTH} printable characters.`,
    );
  }
}

export function checkCustomerGroups(groups: number[]): void {
  if (groups.length > MAX_CUSTOMER_GROUPS)
    throw new RegistrationError("invalid", `customerGroups may list at most ${MAX_CUSTOMER_GROUPS} groups.`);
  for (const group of groups) {
    if (!Number.isInteger(group) || group < 1 || group > MAX_CUSTOMER_GROUP)
      throw new RegistrationError(
        "invalid",
        `customerGroups must be whole numbers from 1 to ${MAX_CUSTOMER_GROUP} (group 0 is everyone's); got ${group}.`,
      );
  }
  if (new Set(groups).size !== groups.length)
    throw new RegistrationError("invalid", "customerGroups must not repeat a group.");
}
