/**
 * Signs out here and at OptiGate: the session cookie goes, and the browser is sent to OptiGate's end-session
 * endpoint with the ID token as hint, which brings it back to this app's start page. POST only, from the page's
 * form, so that no other site can sign the user out with a link.
 */
import { NextResponse, type NextRequest } from "next/server";
import { getToken } from "next-auth/jwt";
import { endSessionUrl } from "@/lib/optigate";
import type { SessionToken } from "@/lib/session-token";

export async function POST(request: NextRequest) {
  const token = (await getToken({ req: request, secret: process.env.NEXTAUTH_SECRET! })) as SessionToken | null;
  const response = NextResponse.redirect(await endSessionUrl(token?.idToken), 303);
  for (const cookie of request.cookies.getAll()) {
    if (cookie.name.includes("next-auth.session-token")) response.cookies.delete(cookie.name);
  }
  return response;
}
