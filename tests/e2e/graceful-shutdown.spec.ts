/**
 * SIGTERM while a sub-catalog download is running: the server takes no new connections, lets the download finish,
 * closes its database connections and exits 0; a second signal exits at once. Servers of this file's own, with a
 * generated 100,000-article catalog imported and released through the CLI.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { writeCatalogFile } from "../../scripts/bench/catalog-bench";
import { startOwnServer, type OwnServer } from "./raw-http";

// About 19 MB: more than the socket buffers on both sides of a paused reader hold, so the server is still writing
// when the signal comes (30,000 articles, 5.7 MB, fitted into them once the server wrote faster).
const ARTICLES = 100_000;

async function serverWithBigCatalog(): Promise<{ server: OwnServer; query: string }> {
  const server = await startOwnServer();
  const file = path.join(mkdtempSync(path.join(tmpdir(), "optigate-shutdown-")), "catalog.xml");
  await writeCatalogFile(file, ARTICLES);
  const admin = (...args: string[]) =>
    execFileSync(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args], {
      env: { ...process.env, DATABASE_URL: server.databaseUrl },
      stdio: "pipe",
    });
  admin("catalogs", "import", file);
  admin("catalogs", "release", "DLAG", "catalog_BENCH.xml", "1");
  const login = await fetch(`http://127.0.0.1:${server.port}/services/login/SilentLogin`, {
    method: "POST",
    body: new URLSearchParams({ username: "optician@demo.test", password: "Optician#2026" }),
  });
  const { ticket } = await login.json();
  return {
    server,
    query: new URLSearchParams({
      ticket,
      companyID: "demo-company-lens",
      catalogResourceKey: "DLAG-BENCH",
      revision: "1",
    }).toString(),
  };
}

/** Starts the download and reads it slowly: the first chunk now, the rest when `drain` is called. */
function slowDownload(
  port: number,
  query: string,
): Promise<{ firstChunk: string; drain: () => Promise<{ text: string; complete: boolean }> }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: "127.0.0.1", port, path: `/getSubCatalog.ashx?${query}` }, (response) => {
      response.pause();
      response.once("readable", () => {
        const firstChunk = String(response.read() ?? "");
        resolve({
          firstChunk,
          drain: () =>
            new Promise((done) => {
              let text = firstChunk;
              response.setEncoding("utf8");
              response.on("data", (chunk: string) => (text += chunk));
              response.on("end", () => done({ text, complete: response.complete }));
              response.on("aborted", () => done({ text, complete: false }));
              response.on("error", () => done({ text, complete: false }));
              response.resume();
            }),
        });
      });
    });
    request.on("error", reject);
  });
}

/** Whether the port takes a new TCP connection now. */
const newConnection = (port: number) =>
  new Promise<"accepted" | "refused">((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port }, () => {
      socket.destroy();
      resolve("accepted");
    });
    socket.on("error", () => resolve("refused"));
  });

const exited = (server: OwnServer) =>
  new Promise<number | null>((resolve) =>
    server.process.exitCode !== null
      ? resolve(server.process.exitCode)
      : server.process.once("exit", (code) => resolve(code)),
  );

test("SIGTERM lets a running sub-catalog download finish, takes no new connections, and exits 0", async () => {
  test.setTimeout(120_000);
  const { server, query } = await serverWithBigCatalog();
  const download = await slowDownload(server.port, query);
  expect(download.firstChunk).toContain("<SubCatalog");
  const exit = exited(server);
  server.process.kill("SIGTERM");
  // Closed for new connections (as soon as the signal is handled) while the download is still being sent. Each probe
  // is a new TCP connection: fetch would reuse a kept-alive one, which is not a new connection.
  await expect.poll(() => newConnection(server.port), { timeout: 10_000 }).toBe("refused");
  expect(server.process.exitCode).toBeNull();
  const { text, complete } = await download.drain();
  expect(complete).toBe(true);
  expect(text.trimEnd().endsWith("</SubCatalog>")).toBe(true);
  expect(text.match(/<Article /g)?.length).toBe(ARTICLES);
  expect(await exit).toBe(0);
  expect(server.log()).toContain("SIGTERM: no new connections");
  expect(server.log()).toContain("stopped");
});

test("a second signal exits at once, cutting the download off", async () => {
  test.setTimeout(120_000);
  const { server, query } = await serverWithBigCatalog();
  const download = await slowDownload(server.port, query);
  const exit = exited(server);
  server.process.kill("SIGTERM");
  await new Promise((resolve) => setTimeout(resolve, 300));
  server.process.kill("SIGTERM");
  expect(await exit).toBe(1);
  const { complete } = await download.drain();
  expect(complete).toBe(false);
  expect(server.log()).toContain("SIGTERM again: exiting at once");
});
