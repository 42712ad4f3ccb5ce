/** The catalog services' XML answers; their refusals are plain text (catalogErrorAnswer in lib/http/error-answers). */
import type { DownloadRefusal } from "@/lib/http/download-answer";

export const XML_CONTENT_TYPE = "text/xml; charset=utf-8";

/** A download's refusal (no acceptable coding, a range past the end) as the catalog services' plain text. */
export const refuseCatalogDownload: DownloadRefusal = (status, message, headers) =>
  new Response(`${message}\n`, {
    status,
    headers: { ...headers, "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
