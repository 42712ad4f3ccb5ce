/**
 * A refusal of the catalog services, with the status code the legacy service gives it: a bad parameter (400), a ticket that is
 * unknown, expired or of an inactive user (401), a revision that is not released (403), a catalog that does not exist
 * (404). The catalog endpoints answer it as plain text, the platform API as a problem.
 */
import { OptiGateError } from "@/lib/errors/optigate-error";

const CATALOG_ERROR_CODES = {
  400: "bad_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
} as const;
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
