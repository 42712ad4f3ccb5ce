/**
 * The address a request came from, for throttling and the audit trail. OptiGate's Node server appends the socket's
 * address to X-Forwarded-For, as a proxy would; each trusted reverse proxy in front of it appends one more entry.
 * Entries further left are whatever the caller claimed and are never believed.
 */
export function clientAddress(request: Request, trustedProxies: number): string | undefined {
  const entries = (request.headers.get("x-forwarded-for") ?? "").split(",").map((part) => part.trim()).filter(Boolean);
  return entries.at(-1 - trustedProxies) ?? entries[0];
}

/** Appends the socket's address to X-Forwarded-For (for the Node server in front of Next.js). */
export function appendForwardedFor(existing: string | string[] | undefined, socketAddress: string | undefined): string | undefined {
  const previous = [existing ?? []].flat().join(", ");
  if (!socketAddress) return previous || undefined;
  return previous ? `${previous}, ${socketAddress}` : socketAddress;
}
