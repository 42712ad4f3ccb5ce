/**
 * POST /interaction/catalogs: the supplier's catalog page, through lib/rights/supplier-catalogs.ts (users of a supplier
 * company, for their own company only). `action=import` (multipart, file field `catalog`) imports a master catalog
 * file as the catalog's next revision, unreleased; `action=pull` (field `url`) imports the file at that URL the same
 * way, for files larger than the hosting platform lets an upload be; `action=release` releases a revision. The
 * import's outcome reaches the page in a sealed cookie that lives two minutes: its list of errors is too long for a URL.
 */
import { PAGES } from "@/lib/http/paths";
import { MAX_UPLOAD_BYTES } from "@/lib/config/policy";
import { AccessDenied, actorOfRequest, supplierOf, type Actor } from "@/lib/rights/actor";
import {
  CatalogNotFetched,
  CatalogPublishingError,
  importOwnCatalog,
  PullBusy,
  pullOwnCatalog,
  releaseOwnRevision,
  type ImportResult,
} from "@/lib/rights/supplier-catalogs";
import type { CatalogProblem } from "@/lib/catalog/publishing/catalog-problems";
import { BodyTooLargeError, readForm, RequestBodyError } from "@/lib/http/form-body";
import { isMultipartRequest, readMultipartUpload, type MultipartUpload } from "@/lib/http/multipart-upload";
import { IMPORT_RESULT_COOKIE } from "@/lib/http/flash-cookies";
import { sealedCookie } from "@/lib/http/sealed-cookie";
import { pageUrl, seeOther } from "@/lib/http/see-other";
import { PullRefused } from "@/lib/http/pulled-file";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";

/** Errors carried to the page, the length of a value quoted in them, and their size as JSON: the sealed cookie
 * grows by about a third and must stay well inside a browser's 4 KB. */
const SHOWN_ERRORS = 8;
const MAX_SHOWN_VALUE = 80;
const MAX_SHOWN_BYTES = 2000;

export type ShownImportResult =
  | { ok: true; catalogId: string; revision: number; articles: number }
  /** `more`: how many errors there are beyond those shown */
  | { ok: false; errors: { line: number; problem: CatalogProblem }[]; more: number };

/** The problem with its quoted values cut to a length the page (and the cookie) can hold. */
function boundedProblem({ key, values, reason }: CatalogProblem): CatalogProblem {
  const bounded = Object.fromEntries(
    Object.entries(values ?? {}).map(([name, value]) => [
      name,
      typeof value === "string" && value.length > MAX_SHOWN_VALUE ? `${value.slice(0, MAX_SHOWN_VALUE - 1)}…` : value,
    ]),
  );
  return { key, values: bounded, ...(reason ? { reason: boundedProblem(reason) } : {}) };
}

function shown(result: ImportResult): ShownImportResult {
  if (result.ok) return { ok: true, catalogId: result.catalogId, revision: result.revision, articles: result.articles };
  const errors: { line: number; problem: CatalogProblem }[] = [];
  let bytes = 0;
  for (const { line, problem } of result.errors.slice(0, SHOWN_ERRORS)) {
    const error = { line, problem: boundedProblem(problem) };
    bytes += Buffer.byteLength(JSON.stringify(error));
    if (bytes > MAX_SHOWN_BYTES) break;
    errors.push(error);
  }
  return { ok: false, errors, more: result.errors.length - errors.length + (result.unreported ?? 0) };
}

const forbiddenResponse = () =>
  new Response("Only users of a supplier company can publish catalogs.\n", {
    status: 403,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });

const back = (params: Record<string, string>) => seeOther(pageUrl(PAGES.catalogs, params));

/** The text with its first chunk read ahead, or undefined for an empty file. */
async function unlessEmpty(text: AsyncIterable<string>): Promise<AsyncIterable<string> | undefined> {
  const chunks = text[Symbol.asyncIterator]();
  const first = await chunks.next();
  if (first.done) return undefined;
  return (async function* () {
    yield first.value;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
  })();
}

/** Back to the page, with the import's outcome in the sealed cookie. */
function importedAnswer(result: ImportResult, config: ServiceContext["config"]): Response {
  return seeOther(PAGES.catalogs, [
    sealedCookie(IMPORT_RESULT_COOKIE, shown(result), {
      secretKey: config.secretKey,
      publicUrl: config.publicUrl,
      path: PAGES.catalogs,
    }),
  ]);
}

/** action=import: the upload's fields (CSRF first), then the file, streamed into the import. */
async function importUpload(request: Request, context: ServiceContext, actor: Actor): Promise<Response> {
  const { config } = context;
  let upload: MultipartUpload;
  try {
    upload = await readMultipartUpload(request, MAX_UPLOAD_BYTES);
  } catch (error) {
    if (!(error instanceof RequestBodyError)) throw error;
    return back({ error: error instanceof BodyTooLargeError ? "too_large" : "form_expired" });
  }
  if (!isValidCsrfSubmission(request, upload.fields, config.secretKey, config.publicUrl)) {
    upload.discard();
    return back({ error: "form_expired" });
  }
  if (upload.fields.get("action") !== "import" || !upload.file || upload.file.name === "") {
    upload.discard();
    return back({ error: upload.fields.get("action") === "import" ? "no_file" : "unknown_action" });
  }
  try {
    const text = await unlessEmpty(upload.file.text);
    if (!text) return back({ error: "no_file" });
    return importedAnswer(await importOwnCatalog(actor, text), config);
  } catch (error) {
    // The import has discarded what it wrote.
    if (error instanceof RequestBodyError)
      return back({ error: error instanceof BodyTooLargeError ? "too_large" : "form_expired" });
    throw error;
  }
}

/**
 * action=pull: the file at the URL given, imported as an upload is; otherwise why it could not be fetched (one message
 * for every failure at an address that is not public), or that a pull is under way already.
 */
async function pullSubmitted(form: URLSearchParams, context: ServiceContext, actor: Actor): Promise<Response> {
  const location = (form.get("url") ?? "").trim();
  if (location === "") return back({ error: "no_url" });
  try {
    return importedAnswer(await pullOwnCatalog(actor, location), context.config);
  } catch (error) {
    // The import has discarded what it wrote.
    if (error instanceof CatalogNotFetched || error instanceof PullBusy) return back({ error: `pull_${error.code}` });
    if (!(error instanceof PullRefused)) throw error;
    return back({ error: `pull_${error.code}`, ...(error.status ? { status: String(error.status) } : {}) });
  }
}

/** action=release: releases one of the company's revisions. */
async function releaseSubmitted(form: URLSearchParams, actor: Actor): Promise<Response> {
  const catalogId = form.get("catalog_id") ?? "";
  const revision = form.get("revision") ?? "";
  if (!/^\d{1,9}$/.test(revision)) return back({ error: "not_found" });
  await releaseOwnRevision(actor, catalogId, Number(revision));
  return back({ released: `${catalogId}:${revision}` });
}

/** A plain form (CSRF first): release a revision, or pull a file from a URL. */
async function formSubmitted(request: Request, context: ServiceContext, actor: Actor): Promise<Response> {
  const { config } = context;
  const form = await readForm(request);
  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl)) return back({ error: "form_expired" });
  const action = form.get("action");
  if (action === "release") return releaseSubmitted(form, actor);
  if (action === "pull") return pullSubmitted(form, context, actor);
  return back({ error: "unknown_action" });
}

export async function handleCatalogSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const actor = await actorOfRequest(context, request);
  if (actor.kind === "anonymous") return seeOther(pageUrl(PAGES.login, { returnUrl: PAGES.catalogs }));
  if (!supplierOf(actor)) return forbiddenResponse();
  if (Number(request.headers.get("content-length") ?? Number.NaN) > MAX_UPLOAD_BYTES)
    return back({ error: "too_large" });
  try {
    return isMultipartRequest(request)
      ? await importUpload(request, context, actor)
      : await formSubmitted(request, context, actor);
  } catch (error) {
    if (error instanceof CatalogPublishingError) return back({ error: error.code });
    if (error instanceof AccessDenied) return forbiddenResponse();
    throw error;
  }
}
