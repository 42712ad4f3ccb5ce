/**
 * Whether the request carries `Authorization: Bearer <token>`, compared in constant time: the SHA-256 digests of both
 * are compared, so neither the content nor the length of the token shows in the time the answer takes.
 */
import { createHash, timingSafeEqual } from "node:crypto";

const digest = (value: string) => createHash("sha256").update(value).digest();

export function bearerMatches(request: Request, token: string): boolean {
  const given = /^Bearer (.+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}
