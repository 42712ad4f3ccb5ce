/**
 * The actor of the page being rendered, from the session cookie, resolved once per request however many components
 * ask (the layout and the page render in parallel; both may ask, neither is the guard).
 */
import "server-only";
import { cookies } from "next/headers";
import { cache } from "react";
import { actorOfSessionCookie, type Actor } from "@/lib/rights/actor";
import { getServiceContext } from "@/lib/service-context";
import { SESSION_COOKIE } from "@/lib/session/session-cookie";

export const currentActor = cache(async (): Promise<Actor> =>
  actorOfSessionCookie(getServiceContext(), (await cookies()).get(SESSION_COOKIE)?.value),
);
