/**
 * A Pwned Passwords range API on the loopback (a real node:http server), as a mirror would run it: `GET /range/<first
 * five hex digits of a SHA-1>` answers the rest of each known hash with that prefix and its count, padded (as with
 * `Add-Padding: true`) with lines of count 0, one of them the suffix of each `padded` password. It records what it was
 * asked; `mode` turns it into an outage (503) or a server that never answers.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

const sha1 = (password: string) => createHash("sha1").update(password, "utf8").digest("hex").toUpperCase();

export class RangeServer {
  /** The paths asked for, and the Add-Padding header each came with. */
  readonly requests: { path: string; padding: string | undefined }[] = [];
  mode: "answer" | "unavailable" | "silent" = "answer";
  private readonly lines = new Map<string, string[]>();
  private readonly server: Server;

  /** `breached`: each password with how often it was seen; `padded`: passwords listed with count 0 only. */
  constructor(breached: Record<string, number>, padded: string[] = []) {
    const entries: [string, number][] = [
      ...Object.entries(breached),
      ...padded.map((word): [string, number] => [word, 0]),
    ];
    for (const [password, count] of entries) {
      const hash = sha1(password);
      const range = this.lines.get(hash.slice(0, 5)) ?? [];
      this.lines.set(hash.slice(0, 5), [...range, `${hash.slice(5)}:${count}`]);
    }
    this.server = createServer((request, response) => this.answer(request, response));
  }

  private answer(request: IncomingMessage, response: ServerResponse): void {
    this.requests.push({ path: request.url ?? "", padding: request.headers["add-padding"] as string | undefined });
    if (this.mode === "silent") return;
    if (this.mode === "unavailable") return void response.writeHead(503).end("down for maintenance");
    const prefix = /^\/range\/([0-9A-F]{5})$/.exec(request.url ?? "")?.[1];
    if (!prefix) return void response.writeHead(404).end();
    const decoys = Array.from({ length: 3 }, (_, index) => `${"0".repeat(34)}${index}:0`);
    const body = [...(this.lines.get(prefix) ?? []), ...decoys].join("\r\n");
    response.writeHead(200, { "content-type": "text/plain" }).end(body);
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
  }

  /** The API's base URL, as PASSWORD_BREACH_URL names it. */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
