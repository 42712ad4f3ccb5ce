/**
 * Whom an access token stands for: a person, or a client acting for itself. OptiGate marks its own client tokens with
 * `gty: "client_credentials"` and keeps `sub` equal to `client_id` for them (RFC 9068 §2.2); a token whose `sub`
 * equals its `client_id` is a client's whatever else it says, so an id a client shares with a person never makes it
 * that person. Every consumer of a token (SilentLogin, introspection, userinfo, the platform API, token exchange)
 * asks this function, never `sub` alone (docs/security.md, "Who a token stands for").
 */
export const CLIENT_TOKEN_GRANT = "client_credentials";

export type TokenPrincipal = { kind: "client"; clientId: string } | { kind: "user"; userId: string };

interface PrincipalClaims {
  sub?: unknown;
  client_id?: unknown;
  gty?: unknown;
}

/** The principal of verified claims; undefined when they name none (no `sub`). */
export function principalOf(claims: PrincipalClaims): TokenPrincipal | undefined {
  if (typeof claims.sub !== "string" || claims.sub === "") return undefined;
  const clientId = typeof claims.client_id === "string" ? claims.client_id : undefined;
  if (claims.gty === CLIENT_TOKEN_GRANT || claims.sub === clientId)
    return { kind: "client", clientId: clientId ?? claims.sub };
  return { kind: "user", userId: claims.sub };
}

/** The user a token stands for, or undefined when it stands for a client (or nobody). */
export function userIdOf(claims: PrincipalClaims): string | undefined {
  const principal = principalOf(claims);
  return principal?.kind === "user" ? principal.userId : undefined;
}
