/**
 * PgBouncer in transaction mode in front of a PostgreSQL server, as serverless platforms put their poolers in front
 * of theirs: what the tests and the bench of DATABASE_POOLER=transaction run through. Debian's package
 * (`apt-get install pgbouncer`) puts it in /usr/sbin. Its few server connections are shared by all clients, so that
 * consecutive statements of one client connection do meet different server connections, and it keeps no prepared
 * statements for its clients, like the poolers that cannot.
 */
import { execFileSync, spawn, type ChildProcessByStdio } from "node:child_process";
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";

export interface PgBouncer {
  /** A database URL of the server given, as reached through the pooler. */
  through(url: string): string;
  stop(): Promise<void>;
}

/** The pgbouncer executable on PATH or where Debian puts it, if installed. */
export function pgbouncerBinary(): string | undefined {
  const directories = [...(process.env.PATH ?? "").split(path.delimiter).filter(Boolean), "/usr/sbin"];
  return directories
    .map((directory) => path.join(directory, "pgbouncer"))
    .find((file) => {
      try {
        accessSync(file, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
}

/**
 * PgBouncer 1.21 and later can keep prepared statements for clients (max_prepared_statements, on by default from
 * 1.24): switched off, as Debian's 1.18 has none, since the poolers OptiGate must work behind may not.
 */
function preparedStatementsSetting(binary: string): string {
  const [major, minor] = (/PgBouncer (\d+)\.(\d+)/.exec(execFileSync(binary, ["--version"]).toString()) ?? [])
    .slice(1)
    .map(Number);
  return major > 1 || (major === 1 && minor >= 21) ? "max_prepared_statements = 0\n" : "";
}

function configuration(binary: string, server: URL, port: number, serverConnections: number): string {
  const login = [`user=${decodeURIComponent(server.username || "postgres")}`];
  if (server.password) login.push(`password=${decodeURIComponent(server.password)}`);
  return `[databases]
* = host=${server.hostname} port=${server.port || 5432} ${login.join(" ")}
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = any
pool_mode = transaction
default_pool_size = ${serverConnections}
${preparedStatementsSetting(binary)}${process.getuid?.() === 0 ? "user = nobody\n" : ""}`;
}

/** Resolves once PgBouncer listens; what it logs afterwards (a line per connection) is dropped unread. */
function listening(child: ChildProcessByStdio<null, Readable, Readable>, exited: Promise<void>): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let log = "";
    const read = (chunk: Buffer) => {
      log += chunk.toString();
      if (!log.includes("process up")) return;
      for (const stream of [child.stdout, child.stderr]) stream.off("data", read).resume();
      resolve();
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    void exited.then(() => reject(new Error(`pgbouncer exited before it listened:\n${log}`)));
  });
}

/**
 * Starts PgBouncer on `port` in front of the server of `serverUrl` (any user and database of it, logged in as the
 * URL's user), with `serverConnections` server connections per database. It refuses to run as root, so as root it
 * drops to nobody once it has read its configuration.
 */
export async function startPgBouncer(serverUrl: string, port: number, serverConnections = 2): Promise<PgBouncer> {
  const binary = pgbouncerBinary();
  if (!binary) throw new Error("pgbouncer is not installed (apt-get install pgbouncer)");
  const directory = mkdtempSync(path.join(tmpdir(), "optigate-pgbouncer-"));
  const ini = path.join(directory, "pgbouncer.ini");
  writeFileSync(ini, configuration(binary, new URL(serverUrl), port, serverConnections));
  const child = spawn(binary, [ini], { stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    await listening(child, exited);
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  return {
    through(url) {
      const pooled = new URL(url);
      pooled.hostname = "127.0.0.1";
      pooled.port = String(port);
      return pooled.toString();
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
