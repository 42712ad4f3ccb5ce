import { NextResponse, type NextRequest } from "next/server";
import { isDecodablePath, UNDECODABLE_PATH_REFUSAL } from "@/lib/http/decodable-path";
import { interactionPageProxy, isInteractionPage } from "@/lib/pages/page-proxy";

/**
 * OptiGate's pages and the paths with dynamic segments (where Next's router decodes the path and fails with a 500
 * on one that does not decode) pass here first, also where only Next.js serves: an undecodable path is refused; the
 * pages get their CSRF cookie and locale. Form and protocol routes stay out: Next would read their bodies here,
 * whole, before the route could answer without them.
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

// Next.js reads the matcher when it builds, so it holds text: lib/http/paths.ts names these pages, and
// tests/unit/architecture/paths-named-once.test.ts checks that each entry is one of them.
export const config = {
  matcher: [
    "/login",
    "/login/second-factor",
    "/consent",
    "/device",
    "/invitation",
    "/password/:path*",
    "/email/:path*",
    "/portal/:path*",
    "/signout",
    "/admin/:path*",
    "/v2/:path*",
  ],
};
