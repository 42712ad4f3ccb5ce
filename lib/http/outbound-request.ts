/**
 * One request to another server on node:http(s) (a key set's GET, a back-channel logout's POST), which may be held to
 * public addresses (and the ranges the operator lets through): then the address is checked where the connection is
 * made (the `lookup` the socket connects with), so a name that resolves to an internal address is refused even when it
 * resolved to a public one a moment earlier (DNS rebinding).
 */
import { OptiGateError } from "@/lib/errors/optigate-error";
import { lookup as dnsLookup } from "node:dns";
import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { nonPublicLiteralProblem, refusedAddressKind } from "@/lib/http/public-address";
import { NO_ADDRESS_RANGES, type AddressRanges } from "@/lib/config/address-ranges";

/** The host is or resolves to an address that is not public; the message says which and why. */
export class NonPublicAddress extends OptiGateError<"non_public_address"> {
  readonly code = "non_public_address";
}

/**
 * `resolve`, refusing every answer that holds a non-public address outside `allowed`: a name with both kinds is
 * refused whole rather than trusting the connection to pick a public one. `seen` is told each address let through.
 */
export function publicAddressLookup(
  resolve: LookupFunction = dnsLookup as LookupFunction,
  allowed: AddressRanges = NO_ADDRESS_RANGES,
  seen?: (address: string) => void,
): LookupFunction {
  return (hostname, options, callback) =>
    resolve(hostname, options, (error, address, family) => {
      if (error) return callback(error, address, family);
      const found = typeof address === "string" ? [address] : address.map((entry) => entry.address);
      for (const each of found) {
        const kind = refusedAddressKind(each, allowed);
        if (kind)
          return callback(new NonPublicAddress(`${hostname} resolves to ${each}, which is ${kind}`), address, family);
      }
      found.forEach((each) => seen?.(each));
      callback(null, address, family);
    });
}

/**
 * Sends the request and resolves with the response head; the caller reads or destroys the body. `publicOnly`: refuse
 * a non-public host, unless it is in `allowed`, and tell `seen` the addresses let through (the IP literal, or what the
 * name resolved to). Each request has its own connection (no agent pool), so none was made without the check.
 */
export function outboundRequest(
  url: URL,
  options: {
    signal: AbortSignal;
    headers: OutgoingHttpHeaders;
    publicOnly: boolean;
    allowed?: AddressRanges;
    seen?: (address: string) => void;
    method?: "GET" | "POST";
    body?: string;
  },
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const { signal, headers, method = "GET", body, publicOnly, allowed, seen } = options;
    // Node connects to an IP literal without calling `lookup`, so a literal is checked here; a name, where it resolves.
    const problem = publicOnly ? nonPublicLiteralProblem(url.hostname, allowed) : null;
    if (problem) return reject(new NonPublicAddress(problem));
    const literal = url.hostname.replace(/^\[(.*)\]$/, "$1");
    if (publicOnly && isIP(literal)) seen?.(literal);
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const lookup = publicOnly ? publicAddressLookup(dnsLookup as LookupFunction, allowed, seen) : undefined;
    send(url, { agent: false, method, signal, headers, lookup }, resolve).on("error", reject).end(body);
  });
}
