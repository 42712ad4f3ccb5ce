/** A test-only HTTP proxy that sends each request to the next of its backends in turn, as a load balancer might. */
import http, { type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface RoundRobinProxy {
  url: string;
  /** Which backend port each request went to, in order. */
  routed: number[];
  close(): Promise<void>;
}

export async function startRoundRobinProxy(port: number, backends: number[]): Promise<RoundRobinProxy> {
  let next = 0;
  const routed: number[] = [];
  const server: Server = http.createServer((incoming, outgoing) => {
    const backend = backends[next++ % backends.length];
    routed.push(backend);
    const forwarded = http.request(
      { host: "127.0.0.1", port: backend, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on("error", () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}`,
    routed,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
