/**
 * Signs out here and at OptiGate: the session cookie goes, and the browser is sent to OptiGate's end-session
 * endpoint with the ID token as hint, which brings it back to this app's start page. POST only, from this app's
 * own page (the browser names it in Origin), so that no other site can sign the user out.
 */
import { NextResponse, type NextRequest } from "next/server";
import { getToken } from "next-auth/jwt";
import { endSessionUrl } from "@/lib/optigate";
import type { SessionToken } from "@/lib/session-token";
import { settings } from "@/lib/settings";

export async function POST(request: NextRequest) {
  if (request.headers.get("origin") !== new URL(settings.appUrl).origin)
    return new NextResponse("Sign out from this app's own page.", { status: 403 });
  const token = (await getToken({ req: request, secret: process.env.NEXTAUTH_SECRET! })) as SessionToken | null;
  const response = NextResponse.redirect(await endSessionUrl(token?.idToken), 303);
  for (const cookie of request.cookies.getAll()) {
    if (cookie.name.includes("next-auth.session-token")) response.cookies.delete(cookie.name);
  }
  return response;
}
