/**
 * Reading a page's data through the data-access layer. The layer checks the actor's rights; when it refuses, the page
 * answers as people expect: the login page for visitors who are not signed in, the security page for a session that
 * owes its company's second factor, a 403 for everyone else. Nothing of
 * the data has been read at that point, so nothing can reach the response.
 */
import { PAGES } from "@/lib/http/paths";
import "server-only";
import { forbidden, redirect } from "next/navigation";
import { AccessDenied, type Actor } from "@/lib/rights/actor";
import { currentActor } from "@/lib/pages/current-actor";

function loginUrl(returnUrl: string): string {
  return `${PAGES.login}?${new URLSearchParams({ returnUrl })}`;
}

/** Where a session that owes its company's second factor is sent: the security page, to set one up or give it. */
function enrolmentUrl(returnUrl: string): string {
  return `${PAGES.security}?${new URLSearchParams({ enrol: "required", returnUrl })}`;
}

export async function pageData<T>(returnUrl: string, read: (actor: Actor) => T | Promise<T>): Promise<T> {
  const actor = await currentActor();
  try {
    return await read(actor);
  } catch (error) {
    if (error instanceof AccessDenied) {
      if (error.code === "sign_in_required") redirect(loginUrl(returnUrl));
      if (error.code === "second_factor_required") redirect(enrolmentUrl(returnUrl));
      forbidden();
    }
    throw error;
  }
}
