/**
 * The actor of the page being rendered, from the session cookie, resolved once per request however many components
 * ask (the layout and the page render in parallel; both may ask, neither is the guard).
 */
import "server-only";
import { cache } from "react";
import { actorOfSessionCookie, type Actor } from "@/lib/rights/actor";
import { getServiceContext } from "@/lib/service-context";
import { pageSessionCookie } from "@/lib/pages/page-cookies";

export const currentActor = cache(async (): Promise<Actor> =>
  actorOfSessionCookie(getServiceContext(), await pageSessionCookie()),
);
