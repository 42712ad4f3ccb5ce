/**
 * The second step's page: whom it asks (the pending sign-in's user, or the session's for a step-up), by their given
 * name, and what it can ask for. Nobody: the page sends the browser to the login.
 */
import "server-only";
import { cookies } from "next/headers";
import { stepChoices, stepSubject } from "@/lib/rights/second-step";
import { getServiceContext } from "@/lib/service-context";
import { PENDING_SIGN_IN_COOKIE } from "@/lib/session/pending-sign-in";
import { SESSION_COOKIE } from "@/lib/session/session-cookie";

export async function secondStepOfPage() {
  const jar = await cookies();
  const context = getServiceContext();
  const subject = await stepSubject(context, {
    pending: jar.get(PENDING_SIGN_IN_COOKIE)?.value,
    session: jar.get(SESSION_COOKIE)?.value,
  });
  if (!subject) return undefined;
  return { name: subject.user.givenName, via: subject.via, choices: await stepChoices(context, subject) };
}
