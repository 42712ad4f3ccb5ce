/**
 * A file OptiGate fetches from a URL someone gives it (a catalog file larger than the hosting platform lets a request
 * body be): https only (outside production http on a loopback host too, as for key sets), from public addresses or
 * the ranges the rules let through, checked on the address connected to at every redirect; at most `maxBytes`,
 * refused unread when Content-Length claims more and cut off when the body grows past it; everything within
 * `timeoutMs`. The text arrives chunk by chunk and is never held whole. A pull that refused or reached an address that
 * is not public says so (`internal`), so that the caller can keep what such a server answered from whoever named it.
 */
import { OptiGateError } from "@/lib/errors/optigate-error";
import type { IncomingMessage } from "node:http";
import { StringDecoder } from "node:string_decoder";
import { MAX_URI_LENGTH } from "@/lib/config/policy";
import type { AddressRanges } from "@/lib/config/address-ranges";
import { NonPublicAddress, outboundRequest } from "@/lib/http/outbound-request";
import { nonPublicAddressKind } from "@/lib/http/public-address";
import { isFetchableScheme } from "@/lib/http/url-policy";

export type PullProblem =
  "bad_url" | "not_https" | "not_public" | "unreachable" | "redirects" | "status" | "too_large" | "timeout";

/** The file cannot be had; `code` says why for the page, the message in a sentence for the CLI and the log. */
export class PullRefused extends OptiGateError<PullProblem> {
  constructor(
    readonly code: PullProblem,
    message: string,
    /** The HTTP status that was answered instead of the file (code "status"). */
    readonly status?: number,
    /** The address was not public: refused as such, or reached by the rules' leave before the pull failed. */
    readonly internal = code === "not_public",
  ) {
    super(message);
  }
}

export interface PullRules {
  /** https only (else also http on a loopback host). */
  production: boolean;
  /** Non-public ranges that may be reached all the same (CATALOG_PULL_ALLOW for catalog files). */
  allowed: AddressRanges;
}

/** The file's text as it arrives; `internal`: it comes from an address that is not public, within `allowed`. */
export interface PulledFile {
  text: AsyncIterable<string>;
  internal: boolean;
}

/** One pull under way: its deadline, and whether it has reached an address that is not public. */
interface Pull {
  signal: AbortSignal;
  timeoutMs: number;
  internal: boolean;
}

const MAX_REDIRECTS = 3;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The URL to fetch, given or redirected to (relative to `base`), once its scheme is acceptable. */
function pullUrl(location: string, production: boolean, base?: URL): URL {
  let url: URL | undefined;
  try {
    url = location.length <= MAX_URI_LENGTH ? new URL(location, base) : undefined;
  } catch {
    // Not a URL: refused below.
  }
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:"))
    throw new PullRefused("bad_url", `it is not an https URL of at most ${MAX_URI_LENGTH} characters`);
  if (!isFetchableScheme(url, production))
    throw new PullRefused(
      "not_https",
      `${base ? `it redirects to ${url.origin}, which` : "it"} does not use https` +
        (production ? "" : " (http only on a loopback host, for development)"),
    );
  return url;
}

/** The failure in a PullRefused; a request cut off by the timeout is a timeout, whatever error it ended with. */
function failure(error: unknown, pull: Pull): PullRefused {
  if (error instanceof PullRefused) return error;
  if (pull.signal.aborted)
    return new PullRefused("timeout", `it did not arrive whole within ${pull.timeoutMs / 1000} s`);
  if (error instanceof NonPublicAddress)
    return new PullRefused("not_public", `it is not at a public address (${error.message})`);
  const cause = error as NodeJS.ErrnoException | undefined;
  return new PullRefused("unreachable", `it could not be fetched (${cause?.code ?? cause?.message ?? "unknown"})`);
}

/** The failure, marked internal once the pull has reached an address that is not public. */
function refusal(error: unknown, pull: Pull): PullRefused {
  const refused = failure(error, pull);
  if (!pull.internal || refused.internal) return refused;
  return new PullRefused(refused.code, refused.message, refused.status, true);
}

/** The 200 answer's head, redirects followed: each hop's scheme and address are checked anew. */
async function answerOf(location: string, rules: PullRules, pull: Pull): Promise<IncomingMessage> {
  let url = pullUrl(location, rules.production);
  for (let hop = 0; ; hop++) {
    const response = await outboundRequest(url, {
      signal: pull.signal,
      publicOnly: true,
      allowed: rules.allowed,
      // A non-public address let through is one of `allowed`: the pull has reached inside the network.
      seen: (address) => (pull.internal ||= nonPublicAddressKind(address) !== null),
      headers: { accept: "application/xml, text/xml;q=0.9, */*;q=0.1", "accept-encoding": "identity" },
    });
    const status = response.statusCode ?? 0;
    if (status === 200) return response;
    response.destroy();
    if (!REDIRECTS.has(status) || !response.headers.location)
      throw new PullRefused("status", `it answered HTTP ${status} instead of the file`, status);
    if (hop === MAX_REDIRECTS) throw new PullRefused("redirects", `it redirects more than ${MAX_REDIRECTS} times`);
    url = pullUrl(response.headers.location, rules.production, url);
  }
}

const tooLarge = (maxBytes: number) => new PullRefused("too_large", `it is larger than ${maxBytes / (1024 * 1024)} MB`);

/** The body as UTF-8 text, counted in bytes as it arrives; leaving early (or failing) closes the connection. */
async function* cappedText(response: IncomingMessage, maxBytes: number, pull: Pull): AsyncGenerator<string> {
  const decoder = new StringDecoder("utf8");
  let size = 0;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      size += chunk.byteLength;
      if (size > maxBytes) throw tooLarge(maxBytes);
      const text = decoder.write(chunk);
      if (text) yield text;
    }
  } catch (error) {
    throw refusal(error, pull);
  } finally {
    response.destroy();
  }
  const rest = decoder.end();
  if (rest) yield rest;
}

/**
 * Fetches the file at `location`: resolves once a 200 answer has come whose declared size fits, or rejects with
 * PullRefused. Reading the text may still throw PullRefused (too large, timeout, connection lost).
 */
export async function pullFile(
  location: string,
  rules: PullRules,
  limits: { maxBytes: number; timeoutMs: number },
): Promise<PulledFile> {
  const pull: Pull = { signal: AbortSignal.timeout(limits.timeoutMs), timeoutMs: limits.timeoutMs, internal: false };
  let response: IncomingMessage;
  try {
    response = await answerOf(location, rules, pull);
  } catch (error) {
    throw refusal(error, pull);
  }
  if (Number(response.headers["content-length"] ?? 0) > limits.maxBytes) {
    response.destroy();
    throw refusal(tooLarge(limits.maxBytes), pull);
  }
  return { text: cappedText(response, limits.maxBytes, pull), internal: pull.internal };
}
