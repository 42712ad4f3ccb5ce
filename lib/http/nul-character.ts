/**
 * No parameter, field or path segment of OptiGate may hold U+0000: PostgreSQL cannot store it in text, and no name,
 * id or token has one. Requests that carry it (raw, percent-encoded, or as a JSON escape) are refused with 400
 * where they enter, before anything reaches the database.
 */
export const NUL_REFUSAL = "The request contains a NUL character (U+0000), which no parameter or field may hold.";

/** A URL as the Request holds it: raw NULs are percent-encoded there. */
export const urlHasNul = (url: string): boolean => /%00/i.test(url) || url.includes("\u0000");

/** A body's text: form-encoded (%00), JSON-escaped (\u0000), or raw. */
export const bodyHasNul = (text: string): boolean => /%00|\\u0000/i.test(text) || text.includes("\u0000");
