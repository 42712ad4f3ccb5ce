/** Whether the request carries `Authorization: Bearer <token>`, compared in constant time. */
import { timingSafeEqual } from "node:crypto";

export function bearerMatches(request: Request, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/i.exec(request.headers.get("authorization") ?? "")?.[1] ?? "");
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
