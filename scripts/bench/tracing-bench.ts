/**
 * The cost of OpenTelemetry traces at the token endpoint (`npm run bench -- tracing`): OptiGate on SQLite without an
 * OTLP endpoint (tracing off, the SDK not even loaded: how it runs by default) and with one (each request and
 * database statement a span, batched and sent as OTLP/HTTP protobuf to a receiver in this process that reads and
 * drops them), side by side on the server core, taking turns on client_credentials (one span a request) and
 * refresh_token (the request's and its statement's). Their idle memory is reported with the token part's.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { DatabaseTarget } from "@/lib/config/database-url";
import { result } from "./runner";
import { startOptiGate, takeTurns } from "./token-bench";

const GRANTS = ["client_credentials", "refresh_token"] as const;
/**
 * Not the token part's "sqlite …" labels, whose rows its checks take. The server without traces is OptiGate as it
 * runs by default, so its memory is checked against the targets like the token part's ("… ES256"); the other's is
 * shown beside it.
 */
const label = (tracing: "on" | "off") =>
  tracing === "off" ? "tracing off: sqlite ES256" : "tracing on: sqlite ES256, OTLP";

/** What the receiver took: trace exports and their bytes. */
const received = { exports: 0, bytes: 0 };

/** An OTLP/HTTP endpoint that answers every export with success and keeps nothing of it. */
async function startReceiver(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    request.on("data", (chunk: Buffer) => (received.bytes += chunk.length));
    request.on("end", () => {
      received.exports++;
      response.writeHead(200, { "content-type": request.headers["content-type"] ?? "application/x-protobuf" }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function benchTracing(target: DatabaseTarget): Promise<void> {
  const receiver = await startReceiver();
  try {
    await takeTurns(
      [
        () => startOptiGate(target, "ES256", label("off")),
        () => startOptiGate(target, "ES256", label("on"), { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }),
      ],
      GRANTS,
    );
  } finally {
    await receiver.close();
  }
  console.log(`  the OTLP receiver took ${received.exports} exports, ${(received.bytes / 1e6).toFixed(1)} MB`);
}

export function reportTracing(check: (label: string, ok: boolean) => void): void {
  const rows = GRANTS.flatMap((grant) => {
    const [off, on] = [result(`${label("off")} ${grant}`), result(`${label("on")} ${grant}`)];
    return off && on ? [{ grant, off, on }] : [];
  });
  if (rows.length === 0) return;
  console.log("\ntraces (same server core, same database, in turns):");
  for (const { grant, off, on } of rows)
    console.log(`  ${grant}: tracing on ${on.rps} vs off ${off.rps} req/s (${(on.rps / off.rps).toFixed(2)})`);
  check(`the spans of the traced server reached the OTLP receiver (${received.exports} exports)`, received.exports > 0);
}
