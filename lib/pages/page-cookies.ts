/** The cookies of a person and of a mailed link as a page reads them: by their names, `__Host-` ones over https. */
import "server-only";
import { cookies } from "next/headers";
import { getConfig } from "@/lib/config";
import { linkCookieName, type LinkPage } from "@/lib/http/link-token-cookies";
import { pendingSignInCookieName } from "@/lib/session/pending-sign-in";
import { sessionCookieName } from "@/lib/session/session-cookie";

export const pageSessionCookie = async () => (await cookies()).get(sessionCookieName(getConfig().publicUrl))?.value;

export const pagePendingSignInCookie = async () =>
  (await cookies()).get(pendingSignInCookieName(getConfig().publicUrl))?.value;

export const pageLinkToken = async (page: LinkPage) =>
  (await cookies()).get(linkCookieName(page, getConfig().publicUrl))?.value;
