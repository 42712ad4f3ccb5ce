import type { NextRequest } from "next/server";
import { interactionPageProxy } from "@/lib/pages/page-proxy";

export function proxy(request: NextRequest) {
  return interactionPageProxy(request);
}

export const config = { matcher: ["/login", "/consent", "/portal/:path*", "/signout", "/admin/:path*"] };
