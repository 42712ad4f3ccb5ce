/** The lean front answers the hot endpoints from the same handlers as the route files, over real HTTP. */
import { Agent, request as httpRequest, type IncomingMessage } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { fastRoute } from "@/lib/server/fast-front";
import { createNodeServer } from "@/lib/server/node-server";
import { useFrontServer } from "../../helpers/front-server";
import { basic, ISSUER, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const front = useFrontServer();

describe(`lean HTTP front on ${testProvider()}`, () => {
  it("the Node server gives a request two minutes, not Node's five, and its headers twenty seconds", () => {
    const nodeServer = createNodeServer(ISSUER, () => undefined);
    expect([nodeServer.requestTimeout, nodeServer.headersTimeout]).toEqual([120_000, 20_000]);
  });

  it("says it closes a connection whose request's body it answered before reading", async () => {
    // Like a route that answers without reading the body (a form of a visitor sent to the login), a moment later.
    const nodeServer = createNodeServer(ISSUER, (_request, response) => {
      setTimeout(() => response.writeHead(303, { Location: "/login" }).end(), 20);
    });
    await new Promise<void>((resolve) => nodeServer.listen(0, "127.0.0.1", resolve));
    const port = (nodeServer.address() as AddressInfo).port;
    const head = (body: "with" | "later") =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, "127.0.0.1", () => {
          socket.write("POST /interaction/developer HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\n");
          if (body === "with") socket.write("a=b&");
        });
        let answer = "";
        socket.on("data", (chunk) => {
          answer += chunk.toString();
          if (answer.includes("\r\n\r\n")) {
            resolve(answer.split("\r\n\r\n")[0].toLowerCase());
            socket.destroy();
          }
        });
        socket.on("error", reject);
      });
    try {
      // The body still on its way: the answer must not invite another request on a socket that ends.
      expect(await head("later")).toContain("connection: close");
      expect(await head("with")).not.toContain("connection: close");
    } finally {
      nodeServer.close();
      nodeServer.closeAllConnections();
    }
  });

  it("keeps an idle kept-alive connection longer than a caller's pause of several seconds", async () => {
    const nodeServer = createNodeServer(ISSUER, (_request, response) => response.end("from Next.js"));
    await new Promise<void>((resolve) => nodeServer.listen(0, "127.0.0.1", resolve));
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    /** The status, and whether the request went out on a connection kept from before. */
    const get = () =>
      new Promise<[number | undefined, boolean]>((resolve, reject) => {
        const request = httpRequest(
          `http://127.0.0.1:${(nodeServer.address() as AddressInfo).port}/login`,
          { agent },
          (response) => response.resume().on("end", () => resolve([response.statusCode, request.reusedSocket])),
        );
        request.on("error", reject).end();
      });
    try {
      const first = await get();
      // Past Node's default of 5 s, after which the server closed the connection the caller meant to use again.
      await new Promise((resolve) => setTimeout(resolve, 6500));
      const second = await get();
      expect([first, second]).toEqual([
        [200, false],
        [200, true],
      ]);
    } finally {
      agent.destroy();
      await new Promise<void>((resolve) => nodeServer.close(() => resolve()));
    }
  }, 15_000);

  it("sends HSTS on every answer when served over https, and none over http", async () => {
    for (const [publicUrl, expected] of [
      ["https://id.example.com", "max-age=31536000"],
      [ISSUER, null],
    ] as const) {
      const nodeServer = createNodeServer(publicUrl, (_request, response) => response.end("from Next.js"));
      await new Promise<void>((resolve) => nodeServer.listen(0, "127.0.0.1", resolve));
      const origin = `http://127.0.0.1:${(nodeServer.address() as AddressInfo).port}`;
      for (const path of ["/login", "/.well-known/openid-configuration", "/admin/clients/%ZZ"])
        expect((await fetch(`${origin}${path}`)).headers.get("strict-transport-security"), path).toBe(expected);
      const traced = await new Promise<IncomingMessage>((resolve) =>
        httpRequest(`${origin}/`, { method: "TRACE" }, resolve).end(),
      );
      expect([traced.statusCode, traced.headers["strict-transport-security"] ?? null]).toEqual([405, expected]);
      await new Promise<void>((resolve) => nodeServer.close(() => resolve()));
    }
  });

  it("routes only the hot endpoints and methods", () => {
    expect(fastRoute("POST", "/connect/token")).toBeDefined();
    expect(fastRoute("OPTIONS", "/connect/token")).toBeDefined();
    expect(fastRoute("POST", "/connect/introspect")).toBeDefined();
    expect(fastRoute("GET", "/.well-known/openid-configuration?x=1")).toBeDefined();
    expect(fastRoute("GET", "/.well-known/openid-configuration/jwks")).toBeDefined();
    expect(fastRoute("GET", "/getCatalogInfos.ashx?webServices")).toBeDefined();
    expect(fastRoute("GET", "/getSubCatalog.ashx?companyID=x")).toBeDefined();
    for (const [method, url] of [
      ["GET", "/connect/token"],
      ["GET", "/connect/authorize"],
      ["POST", "/interaction/login"],
      ["GET", "/"],
    ]) {
      expect(fastRoute(method, url)).toBeUndefined();
    }
  });

  it("serves a token request over HTTP with the handler's status, headers and body", async () => {
    const response = await fetch(`${front()}/connect/token`, {
      method: "POST",
      headers: {
        Authorization: basic("demo-backend", "demo-backend-secret"),
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: "grant_type=client_credentials&scope=platform.catalogs.read",
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect((await response.json()).token_type).toBe("Bearer");

    const refused = await fetch(`${front()}/connect/token`, {
      method: "POST",
      headers: { Authorization: basic("demo-backend", "wrong"), "Content-Type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials",
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toMatch(/^Basic/);
  });

  it("serves discovery with CORS for registered origins, and refuses oversized bodies", async () => {
    const discovery = await fetch(`${front()}/.well-known/openid-configuration`, {
      headers: { Origin: "http://localhost:5173" },
    });
    expect((await discovery.json()).issuer).toBe(ISSUER);
    expect(discovery.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    const huge = await fetch(`${front()}/connect/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "x=".padEnd(100_000, "a"),
    });
    expect(huge.status).toBe(413);
  });

  it("serves the catalog list buffered and streams the sub-catalog", async () => {
    const list = await fetch(`${front()}/getCatalogInfos.ashx`, { headers: { "accept-encoding": "identity" } });
    expect(list.status).toBe(200);
    expect(list.headers.get("content-type")).toBe("text/xml; charset=utf-8");
    expect(Number(list.headers.get("content-length"))).toBeGreaterThan(0);
    expect(await list.text()).toContain("<CatalogInfos>");

    const lens = `${front()}/getSubCatalog.ashx?companyID=demo-company-lens&catalogResourceKey=DLAG-DE`;
    const download = await fetch(`${lens}&revision=2`, { headers: { "accept-encoding": "identity" } });
    expect(download.status).toBe(200);
    expect(download.headers.get("transfer-encoding")).toBe("chunked");
    expect(download.headers.get("content-length")).toBeNull();
    expect(await download.text()).toMatch(/<Article articleNumber="SV-150"[\s\S]*<\/SubCatalog>\n$/);

    const unreleased = await fetch(`${lens}&revision=3`);
    expect(unreleased.status).toBe(403);
    expect(unreleased.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  });

  it("stops reading when the caller goes away mid-download and keeps serving", async () => {
    const db = service().database.db;
    const catalog = await db.catalog.findFirstOrThrow({ where: { resourceKey: "DLAG-DE" } });
    const revision = await db.catalogRevision.create({
      data: { catalogId: catalog.id, number: 60, publishedAt: new Date(), validFrom: new Date(), released: true },
    });
    await db.catalogArticle.createMany({
      data: Array.from({ length: 20_000 }, (_, index) => ({
        revisionId: revision.id,
        articleNumber: `X-${index}`,
        genericName: "Glas".repeat(50),
      })),
    });

    const abort = new AbortController();
    const response = await fetch(
      `${front()}/getSubCatalog.ashx?companyID=demo-company-lens&catalogResourceKey=DLAG-DE&revision=60`,
      { signal: abort.signal },
    );
    const reader = response.body!.getReader();
    expect((await reader.read()).value!.length).toBeGreaterThan(0);
    abort.abort();
    await expect(reader.read()).rejects.toThrow();

    const next = await fetch(
      `${front()}/getSubCatalog.ashx?companyID=demo-company-lens&catalogResourceKey=DLAG-DE&revision=60`,
    );
    expect((await next.text()).split("</Article>")).toHaveLength(20_001);
  });
});
