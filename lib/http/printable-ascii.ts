/** Printable ASCII without spaces: URLs, client ids and issuers as OptiGate stores them. */
export const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;
