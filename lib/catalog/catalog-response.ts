/**
 * Answers of the catalog services: XML on success, a plain-text message with the seed's status codes otherwise
 * (CatalogServiceError: a bad parameter, a ticket that is unknown, expired or of an inactive user, a revision that is
 * not released, a catalog that does not exist).
 */

import { OptiGateError } from "@/lib/errors/optigate-error";

const CATALOG_ERROR_CODES = { 400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found" } as const;
type CatalogErrorCode = (typeof CATALOG_ERROR_CODES)[keyof typeof CATALOG_ERROR_CODES];

export class CatalogServiceError extends OptiGateError<CatalogErrorCode> {
  constructor(
    readonly status: keyof typeof CATALOG_ERROR_CODES,
    message: string,
  ) {
    super(message);
  }

  get code(): CatalogErrorCode {
    return CATALOG_ERROR_CODES[this.status];
  }
}

export function xmlResponse(body: string | ReadableStream<Uint8Array>, headers: Record<string, string> = {}): Response {
  return new Response(body, {
    status: 200,
    headers: { "Content-Type": "text/xml; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
}

export function plainError(status: number, message: string): Response {
  return new Response(`${message}\n`, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
