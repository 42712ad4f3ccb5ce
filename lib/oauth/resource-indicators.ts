/**
 * RFC 8707 resource indicators: which resource servers a client may ask an access token for, and the audience the
 * token gets. Every client reaches OptiGate's own three, the platform API (`API_URL`), the catalog services
 * (`PUBLIC_URL/services`) and the management API (`PUBLIC_URL/manage/v1`); the operator adds partners' own APIs per client (`allowed_resources`). An authorization
 * request (authorize, PAR) may name several, which its grant then holds; an access token has one audience, so a token
 * request names at most one, within the grant. A request that names none gets the default audience
 * `PUBLIC_URL/resources`, which both of OptiGate's resource servers accept, as before resource indicators.
 */
import { MAX_URI_LENGTH } from "@/lib/config/policy";
import { invalidTarget } from "@/lib/errors/oauth-error";
import { PRINTABLE_ASCII } from "@/lib/http/printable-ascii";

type ResourceConfig = { publicUrl: string; apiUrl: string };
type ResourceClient = { allowedResources: readonly string[] };

/** OptiGate's own resource servers, and userinfo, which takes only tokens requested without a resource. */
export type OwnResourceServer = "platformApi" | "catalogServices" | "managementApi" | "userinfo";

/** The audience of tokens requested without a resource: what every access token carried before RFC 8707. */
export const defaultAudience = (issuer: string) => `${issuer}/resources`;

/** The catalog services' resource: their token-taking endpoint lives under it (/services/login/SilentLogin). */
export const catalogServicesResource = (config: ResourceConfig) => `${config.publicUrl}/services`;

/** The management API's resource: its base address. */
export const managementApiResource = (config: ResourceConfig) => `${config.publicUrl}/manage/v1`;

/** OptiGate's own resource servers, which every client may reach. */
export const ownResources = (config: ResourceConfig) => [
  config.apiUrl,
  catalogServicesResource(config),
  managementApiResource(config),
];

/** The audiences a resource server of OptiGate accepts: its own resource and the default audience. */
export function acceptedAudiences(config: ResourceConfig, server: OwnResourceServer): string[] {
  const own = {
    platformApi: [config.apiUrl],
    catalogServices: [catalogServicesResource(config)],
    managementApi: [managementApiResource(config)],
    userinfo: [],
  };
  return [defaultAudience(config.publicUrl), ...own[server]];
}

const reachable = (config: ResourceConfig, client: ResourceClient) => [
  ...ownResources(config),
  ...client.allowedResources,
];

/** RFC 8707 §2: each `resource` value is an absolute URI without a fragment; empty values count as absent. */
function readResources(values: readonly string[]): string[] {
  const resources = [...new Set(values.filter((value) => value !== ""))];
  for (const resource of resources)
    if (
      resource.length > MAX_URI_LENGTH ||
      !PRINTABLE_ASCII.test(resource) ||
      resource.includes("#") ||
      !URL.canParse(resource)
    )
      throw invalidTarget(`resource "${resource.slice(0, 200)}" must be an absolute URI without a fragment`);
  return resources;
}

/**
 * The resources an authorization request (authorize, PAR, a device authorization) names, each one the client may
 * reach: what its grant holds. `issuesToken`: the answer carries an access token (implicit), so one resource at most.
 * Throws invalid_target.
 */
export function grantedResources(
  config: ResourceConfig,
  client: ResourceClient,
  values: readonly string[],
  issuesToken = false,
): string[] {
  const resources = readResources(values);
  if (issuesToken && resources.length > 1)
    throw invalidTarget("an access token is for one resource server: send one resource");
  const allowed = reachable(config, client);
  const foreign = resources.find((resource) => !allowed.includes(resource));
  if (foreign !== undefined) throw invalidTarget(`"${foreign}" is not a resource server this client may reach`);
  return resources;
}

/**
 * The audience of an access token from the token endpoint: the one resource the request names, within the grant's
 * (any the client may reach when the grant names none); else the grant's only resource; undefined for the default
 * audience. The client must still reach it: the operator may have taken a resource away since the grant. Throws
 * invalid_target.
 */
export function tokenAudience(
  config: ResourceConfig,
  client: ResourceClient,
  values: readonly string[],
  granted: readonly string[],
): string | undefined {
  const requested = readResources(values);
  if (requested.length > 1) throw invalidTarget("an access token is for one resource server: send one resource");
  if (requested.length === 0 && granted.length > 1)
    throw invalidTarget("the grant names several resources: send the one this access token is for");
  const resource = requested[0] ?? granted[0];
  if (resource === undefined) return undefined;
  if (granted.length > 0 && !granted.includes(resource))
    throw invalidTarget(`"${resource}" was not named in the authorization request`);
  if (!reachable(config, client).includes(resource))
    throw invalidTarget(`"${resource}" is not a resource server this client may reach`);
  return resource;
}
