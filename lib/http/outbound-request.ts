/**
 * One request to another server on node:http(s) (a key set's GET, a back-channel logout's POST), which may be held to
 * public addresses: then the address is checked
 * where the connection is made (the `lookup` the socket connects with), so a name that resolves to an internal
 * address is refused even when it resolved to a public one a moment earlier (DNS rebinding).
 */
import { OptiGateError } from "@/lib/errors/optigate-error";
import { lookup as dnsLookup } from "node:dns";
import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { nonPublicAddressKind, nonPublicLiteralProblem } from "@/lib/http/public-address";

/** The host is or resolves to an address that is not public; the message says which and why. */
export class NonPublicAddress extends OptiGateError<"non_public_address"> {
  readonly code = "non_public_address";
}

/**
 * `resolve`, refusing every answer that holds a non-public address: a name with both kinds is refused whole rather
 * than trusting the connection to pick a public one.
 */
export function publicAddressLookup(resolve: LookupFunction = dnsLookup as LookupFunction): LookupFunction {
  return (hostname, options, callback) =>
    resolve(hostname, options, (error, address, family) => {
      if (error) return callback(error, address, family);
      for (const found of typeof address === "string" ? [address] : address.map((entry) => entry.address)) {
        const kind = nonPublicAddressKind(found);
        if (kind)
          return callback(new NonPublicAddress(`${hostname} resolves to ${found}, which is ${kind}`), address, family);
      }
      callback(null, address, family);
    });
}

const checkedLookup = publicAddressLookup();

/**
 * Sends the request and resolves with the response head; the caller reads or destroys the body. `publicOnly`: refuse
 * a non-public host. Each request has its own connection (no agent pool), so none was made without the check.
 */
export function outboundRequest(
  url: URL,
  options: {
    signal: AbortSignal;
    headers: OutgoingHttpHeaders;
    publicOnly: boolean;
    method?: "GET" | "POST";
    body?: string;
  },
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    // Node connects to an IP literal without calling `lookup`, so a literal is checked here; a name, where it resolves.
    const problem = options.publicOnly ? nonPublicLiteralProblem(url.hostname) : null;
    if (problem) return reject(new NonPublicAddress(problem));
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const lookup = options.publicOnly ? checkedLookup : undefined;
    const { signal, headers, method = "GET", body } = options;
    send(url, { agent: false, method, signal, headers, lookup }, resolve).on("error", reject).end(body);
  });
}
