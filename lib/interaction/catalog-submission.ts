/**
 * POST /interaction/catalogs: the supplier's catalog page. `action=import` (multipart, file field `catalog`) imports
 * a master catalog file as the catalog's next revision, unreleased; `action=release` releases one. Only users of a
 * supplier company, only for their own company. The import's outcome reaches the page in a sealed cookie that lives
 * two minutes: its list of errors is too long for a URL.
 */
import { deriveKey, seal, unseal } from "@/lib/crypto/secret-box";
import { expireCookie, serializeCookie } from "@/lib/http/cookies";
import { pageUrl, seeOther } from "@/lib/interaction/see-other";
import { CatalogPublishingError, importCatalog, publishingCompanyOf, releaseRevision, type ImportResult } from "@/lib/catalog/publishing/catalog-publishing";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";
import { findActiveSession, isSecureOrigin, readSessionCookie } from "@/lib/session/login-session";

export const CATALOGS_PATH = "/portal/catalogs";
export const IMPORT_RESULT_COOKIE = "optigate_catalog_import";
/** The uploaded file is held in memory while it is read (the CLI streams from disk and has no limit). */
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;
/** Errors carried to the page; a cookie holds about 4 KB. */
const SHOWN_ERRORS = 8;

export type ShownImportResult =
  | { ok: true; catalogId: string; revision: number; articles: number }
  | { ok: false; errors: { line: number; message: string }[]; more: boolean };

function shown(result: ImportResult): ShownImportResult {
  if (result.ok) return { ok: true, catalogId: result.catalogId, revision: result.revision, articles: result.articles };
  return { ok: false, errors: result.errors.slice(0, SHOWN_ERRORS).map(({ line, message }) => ({ line, message: message.slice(0, 200) })), more: result.errors.length > SHOWN_ERRORS };
}

/** The import outcome from the cookie, if it is there and genuine. */
export function readImportResult(secretKey: string, sealed: string | undefined): ShownImportResult | undefined {
  try {
    return sealed ? (JSON.parse(unseal(sealed, deriveKey(secretKey, "cookie"))) as ShownImportResult) : undefined;
  } catch {
    return undefined;
  }
}

async function* textOf(file: Blob): AsyncIterable<string> {
  const reader = file.stream().pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) yield chunk.value;
  } finally {
    reader.releaseLock();
  }
}

export async function handleCatalogSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { db, config } = context;
  const session = await findActiveSession(db, readSessionCookie(request));
  if (!session) return seeOther(pageUrl("/login", { returnUrl: CATALOGS_PATH }));
  const company = await publishingCompanyOf(db, session.user);
  if (!company) return new Response("Only users of a supplier company can publish catalogs.\n", { status: 403, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  if (Number(request.headers.get("content-length") ?? Number.NaN) > MAX_UPLOAD_BYTES) return seeOther(pageUrl(CATALOGS_PATH, { error: "too_large" }));

  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return seeOther(pageUrl(CATALOGS_PATH, { error: "form_expired" }));
  }
  const fields = new URLSearchParams([...form].filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  if (!isValidCsrfSubmission(request, fields, config.secretKey, config.publicUrl)) return seeOther(pageUrl(CATALOGS_PATH, { error: "form_expired" }));

  const action = fields.get("action");
  if (action === "import") {
    const file = form.get("catalog");
    if (!(file instanceof Blob) || file.size === 0) return seeOther(pageUrl(CATALOGS_PATH, { error: "no_file" }));
    const result = await importCatalog(db, textOf(file), { supplierCompanyId: company.id, userId: session.user.id });
    const cookie = serializeCookie(IMPORT_RESULT_COOKIE, seal(JSON.stringify(shown(result)), deriveKey(config.secretKey, "cookie")), { secure: isSecureOrigin(config.publicUrl), path: CATALOGS_PATH, maxAgeSeconds: 120 });
    return seeOther(CATALOGS_PATH, [cookie]);
  }
  if (action === "release") {
    const catalogId = fields.get("catalog_id") ?? "";
    const revision = fields.get("revision") ?? "";
    if (!/^\d{1,9}$/.test(revision)) return seeOther(pageUrl(CATALOGS_PATH, { error: "not_found" }));
    try {
      await releaseRevision(db, { supplierCompanyId: company.id, catalogId, revision: Number(revision) }, session.user.id);
    } catch (error) {
      if (error instanceof CatalogPublishingError) return seeOther(pageUrl(CATALOGS_PATH, { error: error.code }));
      throw error;
    }
    // The earlier import's outcome is no news any more.
    const expired = expireCookie(IMPORT_RESULT_COOKIE, { secure: isSecureOrigin(config.publicUrl), path: CATALOGS_PATH });
    return seeOther(pageUrl(CATALOGS_PATH, { released: `${catalogId}:${revision}` }), [expired]);
  }
  return seeOther(pageUrl(CATALOGS_PATH, { error: "unknown_action" }));
}
