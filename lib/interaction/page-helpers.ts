/** What the interaction pages read from their request: query values, the CSRF token, the session. */
import { cookies, headers } from "next/headers";
import { cache } from "react";
import { publishingCompanyOf } from "@/lib/catalog/publishing/catalog-publishing";
import { CSRF_COOKIE_HEADER } from "@/lib/interaction/page-proxy";
import { getServiceContext, type ServiceContext } from "@/lib/service-context";
import { csrfToken } from "@/lib/session/csrf";
import { findActiveSession, SESSION_COOKIE, type ActiveSession } from "@/lib/session/login-session";

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export function single(value: string | string[] | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** The form's CSRF token; empty when the proxy did not run, so that the submission is refused. */
export async function pageCsrfToken(context: ServiceContext): Promise<string> {
  const cookieValue = (await headers()).get(CSRF_COOKIE_HEADER);
  return cookieValue ? csrfToken(cookieValue, context.config.secretKey) : "";
}

/** The signed-in user's session, looked up once per request however many components ask. */
export const currentSession = cache(async (): Promise<ActiveSession | null> => {
  return findActiveSession(getServiceContext().db, (await cookies()).get(SESSION_COOKIE)?.value);
});

/** The supplier company the signed-in user publishes catalogs for, if any; once per request (header and page ask). */
export const currentPublishingCompany = cache(async (): Promise<{ id: string; supplierId: string } | undefined> => {
  const session = await currentSession();
  return session ? publishingCompanyOf(getServiceContext().db, session.user) : undefined;
});
