/**
 * What no management client reaches, whatever its scopes: the operator company's people, invitations, roles, second
 * factors, sign-in settings and domains. Its people run the platform: a client that could invite, promote, demote,
 * deactivate or erase someone there, or sign people in there through a provider of its choosing, would make operators
 * or lock them out, which only operators decide (on the pages and the command line). Reads stay with the read scopes.
 */
import "server-only";
import { AccessDenied, type Actor } from "@/lib/rights/actor";

/** Refuses a management client acting on a company of kind "operator"; anyone else, or another company, passes. */
export function refuseClientOnOperatorCompany(actor: Actor, company: { kind: string } | null | undefined): void {
  if (actor.kind === "manager" && company?.kind === "operator") throw new AccessDenied("forbidden");
}
