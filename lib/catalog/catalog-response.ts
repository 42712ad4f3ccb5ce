/**
 * Answers of the catalog services: XML on success, a plain-text message with the seed's status codes otherwise
 * (CatalogServiceError: a bad parameter, a ticket that is unknown, expired or of an inactive user, a revision that is
 * not released, a catalog that does not exist).
 */

export class CatalogServiceError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404,
    message: string,
  ) {
    super(message);
    this.name = "CatalogServiceError";
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
