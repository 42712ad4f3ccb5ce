/** The extension grants of OptiGate's token endpoint: federation (RFC 7523 §2.1, RFC 8693) and devices (RFC 8628). */
export const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
export const JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";
export const TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
export const FEDERATION_GRANTS: readonly string[] = [JWT_BEARER_GRANT, TOKEN_EXCHANGE_GRANT];

/** RFC 7523 §2.2: the client_assertion_type of a JWT client assertion. */
export const JWT_CLIENT_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
