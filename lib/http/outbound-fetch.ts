/**
 * A `fetch` for libraries that take one (openid-client's `customFetch`), built on outboundRequest so that what they
 * fetch is held to OptiGate's outbound rules: https only (outside production http on a loopback host too), public
 * addresses only (or the ranges `allowed` lets through), checked on the address connected to; the answer whole within
 * `timeoutMs` and at most `maxBytes`. Redirects are never followed: the 3xx answer goes back to the library.
 */
import { readCappedAnswer } from "@/lib/http/capped-answer";
import type { IncomingMessage } from "node:http";
import { OptiGateError } from "@/lib/errors/optigate-error";
import type { AddressRanges } from "@/lib/config/address-ranges";
import { NonPublicAddress, outboundRequest } from "@/lib/http/outbound-request";
import { isFetchableScheme } from "@/lib/http/url-policy";

type OutboundFetchProblem = "not_https" | "not_public" | "unreachable" | "timeout" | "too_large";

/** The request was refused or failed before a whole answer came; the message says why in a sentence. */
export class OutboundFetchFailed extends OptiGateError<OutboundFetchProblem> {
  constructor(
    readonly code: OutboundFetchProblem,
    message: string,
  ) {
    super(message);
  }
}

interface OutboundFetchRules {
  production: boolean;
  /** Non-public ranges that may be reached all the same (NO_ADDRESS_RANGES: public addresses only). */
  allowed: AddressRanges;
  timeoutMs: number;
  maxBytes: number;
}

/** What such libraries pass: a method, string headers, and a form or string body. */
interface OutboundFetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  signal?: AbortSignal | null;
}

/** The request body as outboundRequest sends it: text. */
function bodyText(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string" || body instanceof URLSearchParams) return body.toString();
  throw new TypeError("outbound fetch sends text or form bodies only");
}

async function readCapped(response: IncomingMessage, url: URL, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const tooLarge = () => new OutboundFetchFailed("too_large", `${url.origin} answered more than ${maxBytes} bytes`);
  return new Uint8Array(await readCappedAnswer(response, maxBytes, tooLarge));
}

function headersOf(response: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers))
    for (const each of [value ?? []].flat()) headers.append(name, each);
  return headers;
}

/** The failure as an OutboundFetchFailed; whatever ended a request cut off by the deadline, it is a timeout. */
function failure(error: unknown, url: URL, signal: AbortSignal, timeoutMs: number): OutboundFetchFailed {
  if (error instanceof OutboundFetchFailed) return error;
  if (signal.aborted) return new OutboundFetchFailed("timeout", `${url.origin} did not answer within ${timeoutMs} ms`);
  if (error instanceof NonPublicAddress)
    return new OutboundFetchFailed("not_public", `${url.origin} is not at a public address (${error.message})`);
  const cause = error as NodeJS.ErrnoException | undefined;
  return new OutboundFetchFailed(
    "unreachable",
    `${url.origin} could not be reached (${cause?.code ?? cause?.message})`,
  );
}

/** A fetch held to `rules`; it rejects with OutboundFetchFailed when no whole answer came. */
export function outboundFetch(rules: OutboundFetchRules): (url: string, init?: OutboundFetchInit) => Promise<Response> {
  return async (location, init = {}) => {
    const url = new URL(location);
    if (!isFetchableScheme(url, rules.production))
      throw new OutboundFetchFailed("not_https", `${url.origin} does not use https`);
    const method = init.method ?? "GET";
    if (method !== "GET" && method !== "POST") throw new TypeError(`outbound fetch sends GET and POST only`);
    const deadline = AbortSignal.timeout(rules.timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    try {
      const response = await outboundRequest(url, {
        method,
        signal,
        body: bodyText(init.body),
        headers: { ...init.headers, "accept-encoding": "identity" },
        publicOnly: true,
        allowed: rules.allowed,
      });
      const body = await readCapped(response, url, rules.maxBytes);
      const status = response.statusCode ?? 0;
      const empty = status === 204 || status === 205 || status === 304;
      return new Response(empty ? null : body, { status, headers: headersOf(response) });
    } catch (error) {
      throw failure(error, url, signal, rules.timeoutMs);
    }
  };
}
