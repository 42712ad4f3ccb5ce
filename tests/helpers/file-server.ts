/**
 * A supplier's file server on the loopback (a real node:http server), for catalog pulls: each path answers as its
 * route says (a file, a file in chunks without Content-Length, a slow one, an endless body, a redirect, a stall); other paths
 * get 404. It records the paths asked for.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type FileRoute = (response: ServerResponse) => void;

const XML = { "content-type": "application/xml; charset=utf-8" };

/** The content whole, with its Content-Length. */
export const file =
  (content: string, headers: Record<string, string> = XML): FileRoute =>
  (response) =>
    response.writeHead(200, { ...headers, "content-length": Buffer.byteLength(content) }).end(content);

/** `head`, then `chunk` again and again (no Content-Length) until the client hangs up. */
export const endless =
  (head: string, chunk: string): FileRoute =>
  (response) => {
    response.writeHead(200, XML).write(head);
    const pump = () => {
      while (!response.destroyed && response.write(chunk));
      if (!response.destroyed) response.once("drain", pump);
    };
    pump();
  };

/** The status and headers, and `body`: a declared Content-Length the body never reaches, say. */
export const answer =
  (status: number, headers: Record<string, string> = {}, body = ""): FileRoute =>
  (response) =>
    response.writeHead(status, headers).end(body);

/** `head`, then the rest `delayMs` later: a file slow enough for a progress line to be drawn. */
export const trickle =
  (head: string, rest: string, delayMs: number): FileRoute =>
  (response) => {
    response.writeHead(200, XML).write(head);
    setTimeout(() => response.end(rest), delayMs);
  };

/** `head`, then nothing more, the connection kept open. */
export const stall =
  (head: string): FileRoute =>
  (response) =>
    void response.writeHead(200, XML).write(head);

export class FileServer {
  /** The paths asked for, in order. */
  readonly requests: string[] = [];
  private readonly server: Server;

  constructor(routes: Record<string, FileRoute>) {
    this.server = createServer((request, response) => {
      this.requests.push(request.url ?? "");
      const route = routes[request.url ?? ""] ?? answer(404, {}, "not here");
      route(response);
    });
  }

  /** The URL of `path` by the loopback address. */
  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
