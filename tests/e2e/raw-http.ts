/**
 * HTTP as an attacker writes it: request lines, headers and bodies byte for byte (fetch refuses most of what the
 * malformed-input tests send), and an OptiGate of their own on a fresh database, whose log the tests read.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { COMPILED_SERVER } from "../../scripts/compiled-server";

export interface RawRequest {
  method: string;
  target: string;
  /** Header lines as sent; a Buffer value goes out as its bytes. */
  headers?: [string, string | Buffer][];
  body?: Buffer | string;
  /** Sends only this many bytes of the body, then half-closes the connection. */
  cutBodyAfter?: number;
}

export interface RawResponse {
  status: number;
  head: string;
  body: string;
}

/** Sends the request on its own connection and reads the answer until the server closes it. */
export function rawRequest(port: number, request: RawRequest, timeoutMs = 10_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      const headers = (request.headers ?? [])
        .map(([name, value]) => `${name}: ${String(value).slice(0, 80)}`)
        .join(" | ");
      reject(
        new Error(
          `no answer within ${timeoutMs} ms: ${request.method} ${request.target.slice(0, 200)} [${headers}] body ${request.body?.length ?? "none"} bytes${request.cutBodyAfter === undefined ? "" : `, cut after ${request.cutBodyAfter}`}`,
        ),
      );
    }, timeoutMs);
    socket.on("connect", () => {
      const body = request.body === undefined ? undefined : Buffer.from(request.body);
      const lines: Buffer[] = [Buffer.from(`${request.method} ${request.target} HTTP/1.1\r\n`, "latin1")];
      const headers = request.headers ?? [];
      if (!headers.some(([name]) => name.toLowerCase() === "host"))
        lines.push(Buffer.from(`Host: localhost:${port}\r\n`));
      for (const [name, value] of headers)
        lines.push(
          Buffer.concat([
            Buffer.from(`${name}: `, "latin1"),
            Buffer.isBuffer(value) ? value : Buffer.from(value, "latin1"),
            Buffer.from("\r\n"),
          ]),
        );
      if (body && !headers.some(([name]) => /^(content-length|transfer-encoding)$/i.test(name)))
        lines.push(Buffer.from(`Content-Length: ${body.length}\r\n`));
      lines.push(Buffer.from("Connection: close\r\n\r\n"));
      socket.write(Buffer.concat(lines));
      if (body) socket.write(request.cutBodyAfter === undefined ? body : body.subarray(0, request.cutBodyAfter));
      if (request.cutBodyAfter !== undefined) socket.end();
    });
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", () => undefined); // a reset after the answer is fine; no answer at all is judged below
    socket.on("close", () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString("latin1");
      const split = text.indexOf("\r\n\r\n");
      const head = split < 0 ? text : text.slice(0, split);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      resolve({ status, head, body: split < 0 ? "" : text.slice(split + 4) });
    });
  });
}

export interface OwnServer {
  port: number;
  /** Its SQLite database, for the CLI. */
  databaseUrl: string;
  process: ChildProcess;
  /** Everything the server wrote to stdout and stderr so far. */
  log(): string;
  stop(): Promise<void>;
}

/** A port nothing listens on just now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the production build (`npm start`, the compiled scripts/serve.ts) with the demo data on a fresh SQLite database and a free port;
 * `env` adds to its environment or overrides it.
 */
export async function startOwnServer(env: Record<string, string> = {}): Promise<OwnServer> {
  const port = await freePort();
  const directory = mkdtempSync(path.join(tmpdir(), "optigate-raw-"));
  const databaseUrl = `file:${path.join(directory, "optigate.db")}`;
  const child = spawn(process.execPath, [COMPILED_SERVER], {
    env: {
      ...process.env,
      PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
      DATABASE_URL: databaseUrl,
      DEMO_DATA: "1",
      NEXT_TELEMETRY_DISABLED: "1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  for (let attempt = 0; ; attempt++) {
    const health = await rawRequest(port, { method: "GET", target: "/api/health" }, 2000).catch(() => undefined);
    if (health?.status === 200) break;
    if (attempt > 120 || child.exitCode !== null) throw new Error(`the server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return {
    port,
    databaseUrl,
    process: child,
    log: () => output,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** What must never reach a caller or the log: a stack trace or a path into the code. */
export const LEAKS = [
  /\n[ \t]+at [^\n]*(?::\d+:\d+|\(native\)|ignore-listed)/,
  /node_modules[\\/]/,
  /[\\/](lib|app|scripts)[\\/][\w./-]+\.tsx?\b/,
  new RegExp(process.cwd().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")),
];
