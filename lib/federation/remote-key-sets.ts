/**
 * Partners' key sets fetched from their `jwks_uri`: at most 5 s and 64 KB per fetch, https only in production (http
 * only for loopback outside it), redirects followed only on the same origin. Each set is kept per process and
 * fetched again when an assertion names a key the set lacks or the set is an hour old, but at most once a minute per
 * URL (a failed first fetch waits that minute too); when a fetch fails, the last good set stays in use and the log
 * says why.
 */
import { logger } from "@/lib/observability/logger";
import type { JSONWebKeySet } from "jose";
import { processCache } from "@/lib/cache/process-cache";
import { isLoopbackHost } from "@/lib/admin/uri-rules";
import { MAX_KEY_SET_BYTES, parseKeySet } from "@/lib/federation/key-set-rules";

export const FETCH_TIMEOUT_MS = 5000;
export const REFETCH_INTERVAL_MS = 60_000;
const MAX_AGE_MS = 3600_000;
const MAX_REDIRECTS = 3;

/** The key set cannot be had: the reason names the URL and what went wrong. */
export class KeySetUnavailable extends Error {}

interface Entry {
  keys?: JSONWebKeySet;
  fetchedAt: number;
  attemptedAt: number;
  failure?: string;
  pending?: Promise<JSONWebKeySet>;
}

const cache = processCache("remoteKeySets", () => new Map<string, Entry>());

function checkScheme(url: URL, production: boolean): void {
  if (url.protocol === "https:") return;
  if (url.protocol === "http:" && !production && isLoopbackHost(url.hostname)) return;
  throw new KeySetUnavailable(production ? "it is not https" : "it is neither https nor http on a loopback host");
}

async function readCapped(response: Response): Promise<string> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > MAX_KEY_SET_BYTES) throw new KeySetUnavailable(`the answer is larger than ${MAX_KEY_SET_BYTES / 1024} KB`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  for (let read = await reader?.read(); read && !read.done; read = await reader!.read()) {
    size += read.value.byteLength;
    if (size > MAX_KEY_SET_BYTES) {
      await reader!.cancel();
      throw new KeySetUnavailable(`the answer is larger than ${MAX_KEY_SET_BYTES / 1024} KB`);
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

async function download(location: string, production: boolean): Promise<JSONWebKeySet> {
  const signal = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  let url = new URL(location);
  for (let hop = 0; ; hop++) {
    checkScheme(url, production);
    const response = await fetch(url, { redirect: "manual", signal, headers: { accept: "application/jwk-set+json, application/json" } });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      const target = new URL(response.headers.get("location") ?? "", url);
      if (target.origin !== url.origin) throw new KeySetUnavailable(`it redirects to another host (${target.origin})`);
      if (hop >= MAX_REDIRECTS) throw new KeySetUnavailable("it redirects too often");
      url = target;
      continue;
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new KeySetUnavailable(`it answered HTTP ${response.status}`);
    }
    const text = await readCapped(response);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new KeySetUnavailable("the answer is not JSON");
    }
    try {
      return parseKeySet(parsed);
    } catch (error) {
      throw new KeySetUnavailable((error as Error).message);
    }
  }
}

function reason(error: unknown): string {
  if (error instanceof KeySetUnavailable) return error.message;
  const name = (error as Error)?.name;
  if (name === "TimeoutError" || name === "AbortError") return `no answer within ${FETCH_TIMEOUT_MS / 1000} s`;
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return `it could not be fetched (${cause?.code ?? cause?.message ?? (error as Error)?.message ?? "unknown error"})`;
}

function refetch(url: string, entry: Entry, production: boolean, now: number): Promise<JSONWebKeySet> {
  const firstLoad = !entry.keys;
  entry.attemptedAt = now;
  entry.pending = download(url, production)
    .then((keys) => {
      // The minute between fetches starts with the first refresh: a rotation right after the first load is seen.
      Object.assign(entry, { keys, fetchedAt: Date.now(), failure: undefined, attemptedAt: firstLoad ? 0 : now });
      return keys;
    })
    .catch((error: unknown) => {
      entry.failure = `jwks_uri ${url}: ${reason(error)}`;
      if (entry.keys) {
        logger.warn({ keptFrom: new Date(entry.fetchedAt).toISOString() }, `${entry.failure}; keeping the last good key set`);
        return entry.keys;
      }
      logger.warn(entry.failure);
      throw new KeySetUnavailable(entry.failure);
    })
    .finally(() => {
      entry.pending = undefined;
    });
  return entry.pending;
}

/**
 * The key set at `url`. `stale`: the caller met a key id the cached set lacks, so it is fetched again if the last
 * attempt is a minute old. Throws KeySetUnavailable when there is no set to use.
 */
export function remoteKeySet(url: string, options: { production: boolean; stale?: boolean }, now = Date.now()): Promise<JSONWebKeySet> {
  let entry = cache.get(url);
  if (!entry) {
    entry = { fetchedAt: 0, attemptedAt: 0 };
    cache.set(url, entry);
  }
  if (entry.pending) return entry.pending;
  const due = !entry.keys || options.stale || now - entry.fetchedAt > MAX_AGE_MS;
  if (due && now - entry.attemptedAt >= REFETCH_INTERVAL_MS) return refetch(url, entry, options.production, now);
  if (entry.keys) return Promise.resolve(entry.keys);
  return Promise.reject(new KeySetUnavailable(entry.failure ?? `jwks_uri ${url}: not fetched yet`));
}

/** Forgets the fetched sets (a key set URL changed, or a test starts afresh). */
export function forgetRemoteKeySets(url?: string): void {
  if (url === undefined) cache.clear();
  else cache.delete(url);
}
