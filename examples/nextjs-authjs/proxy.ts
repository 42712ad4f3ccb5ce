/**
 * Renews the access token before a page renders. A server component cannot set cookies, so a refresh done there
 * would be lost (and repeated on every page); here the renewed session goes into the response's cookie and into
 * this request's cookie header, which the page then reads.
 */
import { NextResponse, type NextRequest } from "next/server";
import { encode, getToken } from "next-auth/jwt";
import { refreshIsDue, renewed, type SessionToken } from "@/lib/session-token";
import { settings } from "@/lib/settings";

const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600;

export async function proxy(request: NextRequest) {
  const secret = process.env.NEXTAUTH_SECRET!;
  // Auth.js names its cookie after the scheme of NEXTAUTH_URL.
  const secure = settings.appUrl.startsWith("https:");
  const cookieName = secure ? "__Secure-next-auth.session-token" : "next-auth.session-token";
  const token = (await getToken({ req: request, secret, cookieName })) as SessionToken | null;
  if (!token || !refreshIsDue(token)) return NextResponse.next();

  const value = await encode({ token: await renewed(token), secret, maxAge: SESSION_MAX_AGE_SECONDS });
  request.cookies.set(cookieName, value);
  const response = NextResponse.next({ request: { headers: request.headers } });
  response.cookies.set(cookieName, value, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure,
    maxAge: SESSION_MAX_AGE_SECONDS,
  });
  return response;
}

export const config = { matcher: ["/"] };
