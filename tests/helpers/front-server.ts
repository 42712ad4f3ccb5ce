/**
 * The Node deployment's lean front (lib/server/fast-front.ts) on a port of its own, for tests that need what only it
 * does: compressed answers (Next.js drops Content-Encoding from route handlers) and streams cut by a client leaving.
 */
import { execFile } from "node:child_process";
import { createServer, get, type IncomingHttpHeaders, type Server } from "node:http";
import { promisify } from "node:util";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { KEEP_ALIVE_TIMEOUT_MS } from "@/lib/config/policy";
import { fastRoute, serveFast } from "@/lib/server/fast-front";
import { ISSUER } from "./oauth-service";

/** Starts the front before the file's tests and stops it after; gives its base URL. */
export function useFrontServer(): () => string {
  let server: Server;
  let base = "";
  beforeAll(async () => {
    server = createServer((request, response) => {
      const route = fastRoute(request.method, request.url);
      if (route) void serveFast(route, request, response, ISSUER);
      else response.writeHead(404).end("handed to Next.js");
    });
    // As the Node server does: with Node's 5 s, a kept-alive connection the client reuses can be closed under it.
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return () => base;
}

const toHeaders = (raw: IncomingHttpHeaders) =>
  new Headers(
    Object.entries(raw).flatMap(([name, value]) =>
      [value ?? []].flat().map((single): [string, string] => [name, String(single)]),
    ),
  );

/** A GET as sent, its answer as received: the body's bytes not decoded, whatever its Content-Encoding. */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<Response> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("end", () => {
        const status = incoming.statusCode!;
        const body = status === 304 ? null : Buffer.concat(chunks);
        resolve(new Response(body, { status, headers: toHeaders(incoming.headers) }));
      });
      incoming.on("error", reject);
    }).on("error", reject);
  });
}

/** The client of getAndLeave, in a process of its own so that it reacts while this process's server is busy. */
const LEAVING_CLIENT = `
const request = require("node:http").get(process.argv[1], { headers: JSON.parse(process.argv[2]) }, (response) =>
  response.once("data", () => {
    request.destroy();
    process.exit(0);
  }),
);
request.on("error", () => process.exit(1));`;

const IMPATIENT_CLIENT = `
const request = require("node:http").get(process.argv[1], { headers: JSON.parse(process.argv[2]) });
request.on("error", () => undefined);
setTimeout(() => {
  request.destroy();
  process.exit(0);
}, Number(process.argv[3]));`;

/**
 * A GET whose client goes away after the first chunk of the body arrives, or, with `afterMs`, that long after asking
 * whether or not anything came.
 */
export async function getAndLeave(url: string, headers: Record<string, string> = {}, afterMs?: number): Promise<void> {
  const script = afterMs === undefined ? [LEAVING_CLIENT] : [IMPATIENT_CLIENT];
  await promisify(execFile)(process.execPath, ["-e", ...script, url, JSON.stringify(headers), String(afterMs ?? "")]);
}
