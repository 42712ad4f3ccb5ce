/**
 * GET /metrics: absent without METRICS_TOKEN, 401 without the right bearer token, and with it the Prometheus text
 * with token requests by grant and result, protocol error codes, latency histograms per endpoint, catalog bytes
 * streamed and (on PostgreSQL) the pool's connections.
 */
import { prismaStores } from "@/lib/store/stores";
import { describe, expect, it } from "vitest";
import { serviceContextFor } from "@/lib/service-context";
import { loadConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import { ROUTES } from "@/lib/server/routes";
import { handleMetricsRequest } from "@/lib/server/metrics-endpoint";
import { basic, formRequest, ISSUER, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

useOAuthService();
const TOKEN = "metrics-token-0123456789";
const scrape = (config: { metricsToken: string | null }, authorization?: string) =>
  // The process's own client: the one the route handlers above used, whose pool the gauge reports.
  handleMetricsRequest(
    new Request(`${ISSUER}/metrics`, { headers: authorization ? { authorization } : {} }),
    serviceContextFor(prismaStores(getDb()), { ...loadConfig(), ...config }),
  );

describe(`metrics on ${testProvider()}`, () => {
  it("are not served without METRICS_TOKEN, and need it as a bearer token", async () => {
    expect((await scrape({ metricsToken: null }, `Bearer ${TOKEN}`)).status).toBe(404);
    expect((await ROUTES["/metrics"].GET(new Request(`${ISSUER}/metrics`))).status).toBe(404);
    const refused = await scrape({ metricsToken: TOKEN }, "Bearer wrong-token-0123456789");
    expect([refused.status, refused.headers.get("www-authenticate")]).toEqual([401, 'Bearer realm="OptiGate metrics"']);
    expect((await scrape({ metricsToken: TOKEN })).status).toBe(401);
  });

  it("count token requests by grant and result, errors by code, latency per endpoint and catalog bytes", async () => {
    const token = (authorization: string) =>
      ROUTES["/connect/token"].POST(
        formRequest("/connect/token", { grant_type: "client_credentials" }, { authorization }),
      );
    expect((await token(basic("demo-backend", "demo-backend-secret"))).status).toBe(200);
    expect((await token(basic("demo-backend", "wrong"))).status).toBe(401);
    const download = await ROUTES["/getSubCatalog.ashx"].GET(
      new Request(`${ISSUER}/getSubCatalog.ashx?companyID=demo-company-lens&catalogResourceKey=DLAG-DE&revision=2`),
    );
    const bytes = (await download.arrayBuffer()).byteLength;
    const response = await scrape({ metricsToken: TOKEN }, `Bearer ${TOKEN}`);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    const value = (line: RegExp) => Number(new RegExp(`^${line.source} (\\S+)$`, "m").exec(text)?.[1]);
    expect(value(/optigate_token_requests_total\{grant="client_credentials",result="issued"\}/)).toBeGreaterThanOrEqual(
      1,
    );
    expect(
      value(/optigate_token_requests_total\{grant="client_credentials",result="invalid_client"\}/),
    ).toBeGreaterThanOrEqual(1);
    expect(value(/optigate_protocol_errors_total\{error="invalid_client"\}/)).toBeGreaterThanOrEqual(1);
    expect(
      value(/optigate_http_request_duration_seconds_count\{endpoint="\/connect\/token",method="POST",status="2xx"\}/),
    ).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(
      /optigate_http_request_duration_seconds_bucket\{le="0\.005",endpoint="\/getSubCatalog\.ashx",method="GET",status="2xx"\}/,
    );
    expect(value(/optigate_catalog_bytes_streamed_total/)).toBeGreaterThanOrEqual(bytes);
    if (testProvider() === "postgresql")
      expect(value(/optigate_db_pool_connections\{state="total"\}/)).toBeGreaterThanOrEqual(1);
    expect(text).toContain("optigate_process_resident_memory_bytes");
  });
});
