/**
 * The longest values OptiGate keeps from what callers send. Longer input is refused (or, where it is only a hint,
 * dropped) before anything is written, so that no request can fill the database or the audit trail.
 */

/** The longest email address there can be (RFC 5321 §4.5.3.1.3: a 256-octet path less its angle brackets). */
export const MAX_USERNAME_LENGTH = 254;
export const MAX_USER_AGENT_LENGTH = 300;
/** Client ids are 3 to 64 characters (lib/admin/client-metadata.ts). */
export const MAX_CLIENT_ID_LENGTH = 64;
/** Descriptions operators give secrets. */
export const MAX_DESCRIPTION_LENGTH = 200;
export const MAX_URI_LENGTH = 2000;
export const MAX_LIST_ENTRIES = 50;
/** The scope parameter of a request: every scope OptiGate knows fits many times over. */
export const MAX_SCOPE_PARAMETER_LENGTH = 1000;
/** A signed JWT passed back to OptiGate (id_token_hint). */
export const MAX_TOKEN_LENGTH = 8192;

/** Printable ASCII without spaces: URLs, client ids and issuers as OptiGate stores them. */
export const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;
