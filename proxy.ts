import { NextResponse, type NextRequest } from "next/server";
import { isDecodablePath, UNDECODABLE_PATH_REFUSAL } from "@/lib/http/decodable-path";
import { interactionPageProxy, isInteractionPage } from "@/lib/pages/page-proxy";

/**
 * Every request but Next's own static files passes here first, also where only Next.js serves: a path that does not
 * decode is refused before Next's router fails on it; OptiGate's pages get their CSRF cookie and locale.
 */
export function proxy(request: NextRequest) {
  if (!isDecodablePath(request.nextUrl.pathname)) {
    return new NextResponse(`${UNDECODABLE_PATH_REFUSAL}\n`, {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  return isInteractionPage(request.nextUrl.pathname) ? interactionPageProxy(request) : NextResponse.next();
}

export const config = { matcher: ["/((?!_next/static/).*)"] };
