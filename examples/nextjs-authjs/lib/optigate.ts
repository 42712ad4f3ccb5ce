/**
 * The calls this app makes to OptiGate itself, besides what Auth.js does: discovery (cached), the refresh token
 * grant, the end-session URL and the platform API.
 */
import { settings } from "./settings";

interface Discovery {
  token_endpoint: string;
  end_session_endpoint: string;
}

let discovery: Promise<Discovery> | undefined;

export function discover(): Promise<Discovery> {
  discovery ??= fetch(`${settings.issuer}/.well-known/openid-configuration`).then(async (response) => {
    if (!response.ok) throw new Error(`OptiGate discovery answered ${response.status}`);
    return (await response.json()) as Discovery;
  });
  discovery.catch(() => (discovery = undefined));
  return discovery;
}

export interface TokenSet {
  access_token: string;
  expires_in: number;
  refresh_token?: string;
  id_token?: string;
}

/** grant_type=refresh_token with the client's secret (HTTP Basic, RFC 6749 §2.3.1). */
export async function refreshTokens(refreshToken: string): Promise<TokenSet> {
  const { token_endpoint } = await discover();
  const credentials = `${encodeURIComponent(settings.clientId)}:${encodeURIComponent(settings.clientSecret)}`;
  const response = await fetch(token_endpoint, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(credentials).toString("base64")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken }),
  });
  const body = await response.json();
  if (!response.ok) throw new Error(`refresh refused: ${body.error ?? response.status}`);
  return body as TokenSet;
}

/** RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0): OptiGate ends its session and comes back here. */
export async function endSessionUrl(idToken: string | undefined): Promise<string> {
  const { end_session_endpoint } = await discover();
  const url = new URL(end_session_endpoint);
  if (idToken) url.searchParams.set("id_token_hint", idToken);
  url.searchParams.set("client_id", settings.clientId);
  url.searchParams.set("post_logout_redirect_uri", `${settings.appUrl}/`);
  return url.toString();
}

export interface Catalog {
  supplierName: string;
  catalogId: string;
  name: string;
  latestRevision: { number: number } | null;
}

/** The catalogs the user may see, from the platform API v2. */
export async function fetchCatalogs(accessToken: string): Promise<Catalog[]> {
  const response = await fetch(`${settings.apiUrl}/v2/catalogs`, {
    headers: { authorization: `Bearer ${accessToken}` },
    cache: "no-store",
  });
  if (!response.ok) throw new Error(`the platform API answered ${response.status}`);
  return ((await response.json()) as { items: Catalog[] }).items;
}
