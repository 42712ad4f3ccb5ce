/**
 * Webhook receivers on 127.0.0.1, one per path, as a consumer runs them: each keeps the deliveries it got with their
 * headers and body, verified against its endpoint's secret by the `standardwebhooks` package, and answers the status
 * a test sets. A delivery signed at another time than now (a worker whose clock a test moved) is checked against the
 * package's signature at the time the delivery names.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface ReceivedDelivery {
  path: string;
  id: string;
  timestamp: number;
  signature: string;
  body: string;
  /** the payload, when the signature is right for the path's secret; undefined when not */
  verified?: { type: string; timestamp: string; data: Record<string, unknown> };
}

export interface WebhookReceiver {
  /** The URL of a path, to register as an endpoint's url. */
  url(path: string): string;
  /** The secret each path's deliveries are verified with (from the endpoint's creation or rotation). */
  secrets: Map<string, string>;
  /** The status each path answers (200 unless set). */
  statuses: Map<string, number>;
  received: ReceivedDelivery[];
  /** The deliveries a path got, in order. */
  at(path: string): ReceivedDelivery[];
  close(): Promise<void>;
}

/** The payload, verified now by the package, or, for a delivery signed at another time, by its signature then. */
function verify(secret: string | undefined, headers: Record<string, string>, body: string) {
  if (!secret) return undefined;
  const webhook = new Webhook(secret);
  const timestamp = Number(headers["webhook-timestamp"]);
  try {
    if (Math.abs(timestamp - Date.now() / 1000) < 300) return webhook.verify(body, headers);
    const expected = webhook.sign(headers["webhook-id"], new Date(timestamp * 1000), body);
    return headers["webhook-signature"].split(" ").includes(expected) ? JSON.parse(body) : undefined;
  } catch {
    return undefined;
  }
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const secrets = new Map<string, string>();
  const statuses = new Map<string, number>();
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      const path = request.url ?? "/";
      const headers = Object.fromEntries(
        ["webhook-id", "webhook-timestamp", "webhook-signature", "content-type"].map((name) => [
          name,
          String(request.headers[name] ?? ""),
        ]),
      );
      received.push({
        path,
        id: headers["webhook-id"],
        timestamp: Number(headers["webhook-timestamp"]),
        signature: headers["webhook-signature"],
        body,
        verified: headers["content-type"] === "application/json" ? verify(secrets.get(path), headers, body) : undefined,
      });
      response.writeHead(statuses.get(path) ?? 200, { "content-type": "text/plain" }).end("x".repeat(20_000));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    secrets,
    statuses,
    received,
    at: (path) => received.filter((delivery) => delivery.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
