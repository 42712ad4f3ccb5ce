/**
 * The address a request came from, for throttling and the audit trail. The Node server in front of the application
 * records the socket's address as the last X-Forwarded-For entry; entries before it are what the caller claimed.
 */
export function clientAddress(request: Request): string | undefined {
  const forwarded = request.headers.get("x-forwarded-for");
  return forwarded?.split(",").map((part) => part.trim()).filter(Boolean).at(-1);
}
