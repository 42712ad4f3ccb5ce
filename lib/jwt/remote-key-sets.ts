/**
 * Partners' key sets fetched from their `jwks_uri`: at most 5 s and 64 KB per fetch, https only in production (http
 * only for loopback outside it) and there from public addresses (or OUTBOUND_ALLOW's) only, checked on the address
 * connected to; redirects followed only on the same origin. Each set is kept per process, per URL and rules (a set
 * fetched under OUTBOUND_ALLOW never serves a caller held to public addresses), and fetched again when an assertion
 * names a key the set lacks or the set is an hour old, but at most once a minute per URL and rules (a failed first
 * fetch waits that minute too); when a fetch fails, the last good set stays in use and the log says why.
 */
import { readCappedAnswer } from "@/lib/http/capped-answer";
import { OptiGateError } from "@/lib/errors/optigate-error";
import {
  KEY_SET_FETCH_TIMEOUT_MS,
  KEY_SET_MAX_AGE_MS,
  KEY_SET_REFETCH_INTERVAL_MS,
  MAX_KEY_SET_BYTES,
} from "@/lib/config/policy";
import type { IncomingMessage } from "node:http";
import { logger } from "@/lib/observability/logger";
import type { JSONWebKeySet } from "jose";
import { NonPublicAddress, outboundRequest } from "@/lib/http/outbound-request";
import { processCache } from "@/lib/observability/process-cache";
import { isFetchableScheme } from "@/lib/http/url-policy";
import type { AddressRanges } from "@/lib/config/address-ranges";
import { parseKeySet } from "@/lib/jwt/key-set-rules";

const MAX_REDIRECTS = 3;

/** The key set cannot be had: the reason names the URL and what went wrong. */
export class KeySetUnavailable extends OptiGateError<"key_set_unavailable"> {
  readonly code = "key_set_unavailable";
}

interface Entry {
  url: string;
  keys?: JSONWebKeySet;
  fetchedAt: number;
  attemptedAt: number;
  failure?: string;
  pending?: Promise<JSONWebKeySet>;
}

const cache = processCache("remoteKeySets", () => new Map<string, Entry>());

/** How the fetch is held: https only and public addresses (or those in `outboundAllow`) only, in production. */
interface FetchRules {
  production: boolean;
  outboundAllow?: AddressRanges;
}

/** Where the set fetched from `url` under `rules` is kept. */
const entryKey = (url: string, rules: FetchRules) =>
  JSON.stringify([url, rules.production, rules.outboundAllow?.entries ?? []]);

function checkScheme(url: URL, production: boolean): void {
  if (isFetchableScheme(url, production)) return;
  throw new KeySetUnavailable(production ? "it is not https" : "it is neither https nor http on a loopback host");
}

async function readCapped(response: IncomingMessage): Promise<string> {
  const tooLarge = () => new KeySetUnavailable(`the answer is larger than ${MAX_KEY_SET_BYTES / 1024} KB`);
  return (await readCappedAnswer(response, MAX_KEY_SET_BYTES, tooLarge)).toString("utf8");
}

function parseAnswer(text: string): JSONWebKeySet {
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

async function follow(location: string, rules: FetchRules, signal: AbortSignal): Promise<JSONWebKeySet> {
  let url = new URL(location);
  for (let hop = 0; ; hop++) {
    checkScheme(url, rules.production);
    const response = await outboundRequest(url, {
      signal,
      publicOnly: rules.production,
      allowed: rules.outboundAllow,
      headers: { accept: "application/jwk-set+json, application/json" },
    });
    const status = response.statusCode ?? 0;
    if (status !== 200) response.destroy();
    if (status >= 300 && status < 400) {
      const target = new URL(response.headers.location ?? "", url);
      if (target.origin !== url.origin) throw new KeySetUnavailable(`it redirects to another host (${target.origin})`);
      if (hop >= MAX_REDIRECTS) throw new KeySetUnavailable("it redirects too often");
      url = target;
      continue;
    }
    if (status !== 200) throw new KeySetUnavailable(`it answered HTTP ${status}`);
    return parseAnswer(await readCapped(response));
  }
}

async function download(location: string, rules: FetchRules): Promise<JSONWebKeySet> {
  const signal = AbortSignal.timeout(KEY_SET_FETCH_TIMEOUT_MS);
  try {
    return await follow(location, rules, signal);
  } catch (error) {
    // The timeout ends the request or the body with an abort or a reset, depending on when it strikes.
    if (signal.aborted) throw new KeySetUnavailable(`no answer within ${KEY_SET_FETCH_TIMEOUT_MS / 1000} s`);
    throw error;
  }
}

function reason(error: unknown): string {
  if (error instanceof KeySetUnavailable) return error.message;
  if (error instanceof NonPublicAddress) return `it is not at a public address (${error.message})`;
  const failure = error as NodeJS.ErrnoException | undefined;
  return `it could not be fetched (${failure?.code ?? failure?.message ?? "unknown error"})`;
}

function refetch(url: string, entry: Entry, rules: FetchRules, now: number): Promise<JSONWebKeySet> {
  const firstLoad = !entry.keys;
  entry.attemptedAt = now;
  entry.pending = download(url, rules)
    .then((keys) => {
      // The minute between fetches starts with the first refresh: a rotation right after the first load is seen.
      Object.assign(entry, { keys, fetchedAt: Date.now(), failure: undefined, attemptedAt: firstLoad ? 0 : now });
      return keys;
    })
    .catch((error: unknown) => {
      entry.failure = `jwks_uri ${url}: ${reason(error)}`;
      if (entry.keys) {
        logger.warn(
          { keptFrom: new Date(entry.fetchedAt).toISOString() },
          `${entry.failure}; keeping the last good key set`,
        );
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
export function remoteKeySet(
  url: string,
  options: FetchRules & { stale?: boolean },
  now = Date.now(),
): Promise<JSONWebKeySet> {
  const key = entryKey(url, options);
  let entry = cache.get(key);
  if (!entry) {
    entry = { url, fetchedAt: 0, attemptedAt: 0 };
    cache.set(key, entry);
  }
  if (entry.pending) return entry.pending;
  const due = !entry.keys || options.stale || now - entry.fetchedAt > KEY_SET_MAX_AGE_MS;
  if (due && now - entry.attemptedAt >= KEY_SET_REFETCH_INTERVAL_MS) return refetch(url, entry, options, now);
  if (entry.keys) return Promise.resolve(entry.keys);
  return Promise.reject(new KeySetUnavailable(entry.failure ?? `jwks_uri ${url}: not fetched yet`));
}

/** Forgets the fetched sets, or those of one URL under any rules (a key set URL changed, or a test starts afresh). */
export function forgetRemoteKeySets(url?: string): void {
  for (const [key, entry] of cache) if (url === undefined || entry.url === url) cache.delete(key);
}
