/**
 * A prepared sub-catalog as a download (lib/http/download-answer.ts): validators, caching and, for byte ranges, the
 * plain body's length and a stream from the page a range starts in. A layout not yet remembered in this process is
 * learnt by generating the document once without sending it (the cost is measured in `npm run bench -- catalogs`),
 * which stops when the callers waiting for it have gone.
 */
import { setImmediate } from "node:timers/promises";
import type { Stores } from "@/lib/store/stores";
import type { Download } from "@/lib/http/download-answer";
import { rememberedLayout } from "@/lib/catalog/sub-catalog-identity";
import { subCatalogStream, type PreparedSubCatalog } from "@/lib/catalog/sub-catalog";
import { tallyActivity } from "@/lib/store/activity-tally";

/** A German catalog read without a ticket is the same for everyone; shared caches may keep it for an hour. */
const PUBLIC_CACHING = "public, max-age=3600, no-transform";
/** Personal documents: kept only by the reader's own cache, and revalidated before each use. */
const PRIVATE_CACHING = "private, no-cache, no-transform";

/** The document from the start of the page `offset` falls in (from the beginning while its layout is unknown). */
function fromPageOf(stores: Stores, prepared: PreparedSubCatalog, offset: number) {
  const pages = rememberedLayout(prepared.tag)?.pages ?? [];
  const start = pages.findLast((page) => page.offset <= offset);
  return { stream: subCatalogStream(stores, prepared, start), offset: start?.offset ?? 0 };
}

/**
 * Counts in progress by tag: range requests that arrive together for an unknown length share one count, which
 * stops when the last of the callers waiting for it has gone.
 */
const counting = new Map<string, { length: Promise<number>; waiting: number; stop: AbortController }>();

async function countLength(stores: Stores, prepared: PreparedSubCatalog, stop: AbortSignal): Promise<number> {
  let length = 0;
  const reader = subCatalogStream(stores, prepared).getReader();
  const cancel = () => void reader.cancel().catch(() => undefined);
  stop.addEventListener("abort", cancel, { once: true });
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      length += chunk.value.byteLength;
      // Reading pages may never leave the microtask queue (SQLite answers at once): let a caller's leaving be seen.
      await setImmediate();
    }
  } finally {
    stop.removeEventListener("abort", cancel);
  }
  stop.throwIfAborted();
  return length;
}

function countedLength(stores: Stores, prepared: PreparedSubCatalog, caller?: AbortSignal): Promise<number> {
  const known = rememberedLayout(prepared.tag);
  if (known) return Promise.resolve(known.length);
  let count = counting.get(prepared.tag);
  if (!count) {
    const stop = new AbortController();
    const started = { length: countLength(stores, prepared, stop.signal), waiting: 0, stop };
    // Only this count leaves the map: a newer one may have taken its place after it was stopped.
    void started.length
      .catch(() => undefined)
      .finally(() => counting.get(prepared.tag) === started && counting.delete(prepared.tag));
    counting.set(prepared.tag, (count = started));
  }
  const shared = count;
  shared.waiting++;
  caller?.addEventListener(
    "abort",
    () => {
      if (--shared.waiting > 0) return;
      // A caller arriving after this one starts a count of its own rather than joining a stopped one.
      if (counting.get(prepared.tag) === shared) counting.delete(prepared.tag);
      shared.stop.abort();
    },
    { once: true },
  );
  return shared.length;
}

export function subCatalogDownload(
  stores: Stores,
  prepared: PreparedSubCatalog,
  options: { audience: "public" | "private"; contentType: string },
): Download {
  return {
    tag: prepared.tag,
    lastModified: prepared.changedAt,
    cacheControl: options.audience === "public" ? PUBLIC_CACHING : PRIVATE_CACHING,
    contentType: options.contentType,
    body: {
      stream: () => {
        // A whole document counts as a download of the supplier's catalog; a resumed range does not count again.
        tallyActivity(stores.activity, prepared.supplierCompanyId, "catalog.download");
        return subCatalogStream(stores, prepared);
      },
      length: (caller) => countedLength(stores, prepared, caller),
      streamFrom: (offset) => fromPageOf(stores, prepared, offset),
    },
  };
}
