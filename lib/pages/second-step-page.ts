/**
 * The second step's page: whom it asks (the pending sign-in's user, or the session's for a step-up), by their given
 * name, and what it can ask for. Nobody: the page sends the browser to the login.
 */
import "server-only";
import { stepChoices, stepSubject } from "@/lib/rights/second-step";
import { getServiceContext } from "@/lib/service-context";
import { pagePendingSignInCookie, pageSessionCookie } from "@/lib/pages/page-cookies";

export async function secondStepOfPage() {
  const context = getServiceContext();
  const subject = await stepSubject(context, {
    pending: await pagePendingSignInCookie(),
    session: await pageSessionCookie(),
  });
  if (!subject) return undefined;
  return { name: subject.user.givenName, via: subject.via, choices: await stepChoices(context, subject) };
}
