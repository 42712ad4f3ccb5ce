/**
 * Reading a page's data through the data-access layer. The layer checks the actor's rights; when it refuses, the page
 * answers as people expect: the login page for visitors who are not signed in, a 403 for everyone else. Nothing of
 * the data has been read at that point, so nothing can reach the response.
 */
import "server-only";
import { forbidden, redirect } from "next/navigation";
import { AccessDenied, type Actor } from "@/lib/rights/actor";
import { currentActor } from "@/lib/pages/current-actor";

function loginUrl(returnUrl: string): string {
  return `/login?${new URLSearchParams({ returnUrl })}`;
}

export async function pageData<T>(returnUrl: string, read: (actor: Actor) => T | Promise<T>): Promise<T> {
  const actor = await currentActor();
  try {
    return await read(actor);
  } catch (error) {
    if (error instanceof AccessDenied) {
      if (error.code === "sign_in_required") redirect(loginUrl(returnUrl));
      forbidden();
    }
    throw error;
  }
}
