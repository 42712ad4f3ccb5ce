/**
 * The sandbox of a software vendor's application waiting for approval: the protocol sees it with no more than the
 * OpenID scopes, the authorization code flow and the default audience, marked `sandbox`, so that the vendor's own
 * people can sign in to it before the operator decides (the authorization endpoint refuses everyone else). Approval
 * replaces the view by the application as registered.
 */
import type { ClientWithSecrets } from "@/lib/store/models/client";

/** What a sandbox sign-in may ask for: who the person is, nothing of the platform and no offline access. */
const SANDBOX_SCOPES: readonly string[] = ["openid", "profile", "email"];

const within = (values: string[], allowed: readonly string[]) => values.filter((value) => allowed.includes(value));

export function sandboxView(client: ClientWithSecrets): ClientWithSecrets {
  return {
    ...client,
    allowedScopes: within(client.allowedScopes, SANDBOX_SCOPES),
    grantTypes: within(client.grantTypes, ["authorization_code"]),
    responseTypes: within(client.responseTypes, ["code"]),
    allowedResources: [],
    offlineAccess: false,
    resourceServer: false,
    companyId: null,
    frontchannelLogoutUri: null,
    backchannelLogoutUri: null,
    sandbox: true,
  };
}
