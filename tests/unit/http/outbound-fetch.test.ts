import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_ADDRESS_RANGES, parseAddressRanges } from "@/lib/config/address-ranges";
import { outboundFetch, OutboundFetchFailed } from "@/lib/http/outbound-fetch";

let server: Server;
let origin: string;
const paths: string[] = [];

const fetchHeld = outboundFetch({
  production: false,
  allowed: parseAddressRanges("127.0.0.0/8"),
  timeoutMs: 300,
  maxBytes: 1000,
});

async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(OutboundFetchFailed);
  return { code: (error as OutboundFetchFailed).code, message: (error as OutboundFetchFailed).message };
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    paths.push(request.url!);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const routes: Record<string, () => void> = {
      "/json": () => {
        response.setHeader("set-cookie", ["a=1", "b=2"]);
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify({ method: request.method, accept: request.headers.accept }));
      },
      "/form": () => response.end(`${request.headers["content-type"]} ${Buffer.concat(chunks).toString()}`),
      "/moved": () => response.writeHead(302, { location: "/json" }).end(),
      "/empty": () => response.writeHead(204).end(),
      "/declared-large": () => response.writeHead(200, { "content-length": "5000" }).end("x".repeat(5000)),
      "/streamed-large": () => {
        response.write("x".repeat(800));
        setTimeout(() => response.end("x".repeat(800)), 20);
      },
      "/slow": () => setTimeout(() => response.end("late"), 2000),
    };
    routes[request.url!]();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("outboundFetch", () => {
  it("answers as fetch does: status, headers (each Set-Cookie), body", async () => {
    const response = await fetchHeld(`${origin}/json`, { headers: { accept: "application/json" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(await response.json()).toEqual({ method: "GET", accept: "application/json" });
    expect((await fetchHeld(`${origin}/empty`)).status).toBe(204);
  });

  it("posts a form body", async () => {
    const response = await fetchHeld(`${origin}/form`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", code: "a b" }),
    });
    expect(await response.text()).toBe("application/x-www-form-urlencoded grant_type=authorization_code&code=a+b");
  });

  it("hands a redirect back unfollowed", async () => {
    const response = await fetchHeld(`${origin}/moved`);
    expect([response.status, response.headers.get("location")]).toEqual([302, "/json"]);
    expect(paths.filter((path) => path === "/json").length).toBe(1);
  });

  it("refuses an address that is not public unless the rules let it through, before connecting", async () => {
    const before = paths.length;
    const publicOnly = outboundFetch({ production: false, allowed: NO_ADDRESS_RANGES, timeoutMs: 300, maxBytes: 1000 });
    expect(await failure(publicOnly(`${origin}/json`))).toEqual({
      code: "not_public",
      message: `${origin} is not at a public address (127.0.0.1 is loopback)`,
    });
    expect(paths.length).toBe(before);
  });

  it("refuses http off the loopback, and anywhere in production", async () => {
    expect(await failure(fetchHeld("http://idp.example/.well-known/openid-configuration"))).toEqual({
      code: "not_https",
      message: "http://idp.example does not use https",
    });
    const production = outboundFetch({
      production: true,
      allowed: parseAddressRanges("127.0.0.0/8"),
      timeoutMs: 300,
      maxBytes: 1000,
    });
    expect((await failure(production(`${origin}/json`))).code).toBe("not_https");
  });

  it("refuses an answer larger than allowed, declared or streamed", async () => {
    for (const path of ["/declared-large", "/streamed-large"])
      expect(await failure(fetchHeld(`${origin}${path}`))).toEqual({
        code: "too_large",
        message: `${origin} answered more than 1000 bytes`,
      });
  });

  it("gives up on a server that does not answer in time, or is not there", async () => {
    expect(await failure(fetchHeld(`${origin}/slow`))).toEqual({
      code: "timeout",
      message: `${origin} did not answer within 300 ms`,
    });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const nowhere = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    expect(await failure(fetchHeld(`${nowhere}/json`))).toEqual({
      code: "unreachable",
      message: `${nowhere} could not be reached (ECONNREFUSED)`,
    });
  });
});
