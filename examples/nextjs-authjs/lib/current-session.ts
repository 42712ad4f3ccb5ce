/**
 * The session cookie's content for a server component: the user and OptiGate's tokens, which stay on the server
 * (the browser's JavaScript never sees them).
 */
import { cookies, headers } from "next/headers";
import { getToken } from "next-auth/jwt";
import type { NextRequest } from "next/server";
import type { SessionToken } from "./session-token";

export async function currentSession(): Promise<SessionToken | null> {
  const request = {
    cookies: Object.fromEntries((await cookies()).getAll().map((cookie) => [cookie.name, cookie.value])),
    headers: Object.fromEntries(await headers()),
  };
  return (await getToken({
    req: request as unknown as NextRequest,
    secret: process.env.NEXTAUTH_SECRET!,
  })) as SessionToken | null;
}
