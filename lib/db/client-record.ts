/** Converts between a client registration and its `clients` row (lists and language maps are JSON text). */
import type { ClientKind, ClientRegistration, RefreshTokenPolicy, TokenEndpointAuthMethod } from "@/lib/admin/client-metadata";
import type { Client } from "@/lib/db/generated/sqlite/client";

export type RegisteredClient = ClientRegistration & { id: string; createdAt: Date; updatedAt: Date };

export function clientRowData(registration: ClientRegistration) {
  return {
    kind: registration.kind,
    names: JSON.stringify(registration.names),
    descriptions: JSON.stringify(registration.descriptions),
    grantTypes: JSON.stringify(registration.grantTypes),
    responseTypes: JSON.stringify(registration.responseTypes),
    redirectUris: JSON.stringify(registration.redirectUris),
    corsOrigins: JSON.stringify(registration.corsOrigins),
    postLogoutRedirectUris: JSON.stringify(registration.postLogoutRedirectUris),
    allowedScopes: JSON.stringify(registration.allowedScopes),
    tokenEndpointAuthMethod: registration.tokenEndpointAuthMethod,
    offlineAccess: registration.offlineAccess,
    refreshTokenPolicy: registration.refreshTokenPolicy,
    frontchannelLogoutUri: registration.frontchannelLogoutUri,
    backchannelLogoutUri: registration.backchannelLogoutUri,
  };
}

export function registeredClientFromRow(row: Client): RegisteredClient {
  return {
    id: row.id,
    kind: row.kind as ClientKind,
    names: JSON.parse(row.names),
    descriptions: JSON.parse(row.descriptions),
    grantTypes: JSON.parse(row.grantTypes),
    responseTypes: JSON.parse(row.responseTypes),
    redirectUris: JSON.parse(row.redirectUris),
    corsOrigins: JSON.parse(row.corsOrigins),
    postLogoutRedirectUris: JSON.parse(row.postLogoutRedirectUris),
    allowedScopes: JSON.parse(row.allowedScopes),
    tokenEndpointAuthMethod: row.tokenEndpointAuthMethod as TokenEndpointAuthMethod,
    offlineAccess: row.offlineAccess,
    refreshTokenPolicy: row.refreshTokenPolicy as RefreshTokenPolicy,
    frontchannelLogoutUri: row.frontchannelLogoutUri,
    backchannelLogoutUri: row.backchannelLogoutUri,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
