/**
 * OpenTelemetry traces: with an OTLP endpoint configured, instrumentation.ts's register() starts the SDK, and
 * requests arrive at a collector (a small OTLP/JSON receiver here) as traces: the request's server span with its
 * status, client and user, and as its children the spans of the database statements it ran, OptiGate's own and
 * Prisma's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { register } from "@/instrumentation";
import { stopMailDelivery } from "@/lib/mail/mail-delivery";
import { activeTracer, stopTracing } from "@/lib/observability/tracing";
import { guardedHandler } from "@/lib/server/guarded-handler";
import { useFrontServer } from "../../helpers/front-server";
import { basic, call, formRequest, ISSUER, useOAuthService } from "../../helpers/oauth-service";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "../../helpers/otlp-receiver";
import { api, userTokens } from "../../helpers/platform-api";
import { testProvider } from "../../helpers/test-database";

useOAuthService();
const front = useFrontServer();
let collector: OtlpReceiver;

beforeAll(async () => {
  collector = await startOtlpReceiver();
  Object.assign(process.env, {
    NEXT_RUNTIME: "nodejs",
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    // Spans go out a moment after they end instead of after the default five seconds.
    OTEL_BSP_SCHEDULE_DELAY: "20",
  });
  await register();
});

afterAll(async () => {
  await stopTracing();
  await stopMailDelivery();
  await collector?.close();
});

const SERVER = 2;
const CLIENT = 3;
const ERROR = 2;
const childrenOf = (parent: ReceivedSpan) => collector.spans.filter((span) => span.parentSpanId === parent.spanId);

describe(`traces on ${testProvider()}`, () => {
  it("start with register() when OTEL_EXPORTER_OTLP_ENDPOINT is set", () => {
    expect(activeTracer()).toBeDefined();
  });

  it("show a refresh through the lean front as the caller's trace, its token statement a child", async () => {
    const { refresh_token } = await userTokens("optician@demo.test", "Optician#2026", "openid offline_access");
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const response = await fetch(`${front()}/connect/token`, {
      method: "POST",
      headers: {
        authorization: basic("demo-web", "demo-web-secret"),
        "content-type": "application/x-www-form-urlencoded",
        traceparent: `00-${traceId}-00f067aa0ba902b7-01`,
        "x-forwarded-for": "203.0.113.5",
      },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refresh_token! }),
    });
    expect(response.status).toBe(200);

    const request = await collector.waitFor((span) => span.traceId === traceId && span.kind === SERVER);
    expect(request).toMatchObject({
      name: "POST /connect/token",
      parentSpanId: "00f067aa0ba902b7",
      scope: "optigate",
      status: 0,
      attributes: {
        "http.request.method": "POST",
        "http.route": "/connect/token",
        "http.response.status_code": 200,
        "optigate.client_id": "demo-web",
        "client.address": "203.0.113.5",
        "optigate.request_id": response.headers.get("x-request-id"),
      },
    });
    expect(childrenOf(request)).toContainEqual(
      expect.objectContaining({
        name: "optigate_slide_refresh_token",
        traceId,
        kind: CLIENT,
        attributes: { "db.system.name": testProvider() },
      }),
    );
  });

  it("show Prisma's queries and the throttle's statement under a refused client's request", async () => {
    const response = await call(
      "token",
      formRequest(
        "/connect/token",
        { grant_type: "client_credentials" },
        // Failures are counted per caller address.
        { authorization: basic("no-such-client", "a guess"), "x-forwarded-for": "203.0.113.6" },
      ),
    );
    expect(response.status).toBe(401);
    const requestId = response.headers.get("x-request-id");
    const request = await collector.waitFor((span) => span.attributes["optigate.request_id"] === requestId);
    expect(request).toMatchObject({ name: "POST /connect/token", attributes: { "http.response.status_code": 401 } });
    const children = childrenOf(request);
    expect(children.map((span) => span.name)).toEqual(
      expect.arrayContaining(["prisma:client:operation", "optigate_reserve_attempt"]),
    );
    // Prisma 7 on its driver adapters: the client lookup, and under it the SQL it ran.
    const lookup = children.find((span) => span.name === "prisma:client:operation")!;
    expect(lookup.attributes).toMatchObject({ name: "Client.findUnique" });
    expect(childrenOf(lookup)).toContainEqual(
      expect.objectContaining({
        name: "prisma:client:db_query",
        traceId: request.traceId,
        attributes: expect.objectContaining({ "db.system.name": testProvider() }),
      }),
    );
  });

  it("name an API span by its route and carry the token's user by id", async () => {
    const tokens = await userTokens("optician@demo.test", "Optician#2026", "openid platform.catalogs.read");
    const { sub } = JSON.parse(Buffer.from(tokens.id_token!.split(".")[1], "base64url").toString("utf8"));
    const path = "/v2/catalogs/no-such-supplier/no-such-catalog";
    const { response } = await api("GET", path, { token: tokens.access_token });
    expect(response.status).toBe(404);
    const request = await collector.waitFor((span) => span.attributes["url.path"] === path);
    expect(request).toMatchObject({
      name: "GET /v2/catalogs/{supplierId}/{catalogId}",
      status: 0,
      attributes: { "http.response.status_code": 404, "optigate.client_id": "demo-web", "user.id": sub },
    });
  });

  it("mark a request that ended in a 5xx as failed", async () => {
    const failing = guardedHandler(() => Promise.reject(new Error("the handler broke")));
    const response = await failing(new Request(`${ISSUER}/connect/userinfo`));
    expect(response.status).toBe(500);
    const requestId = response.headers.get("x-request-id");
    expect(await collector.waitFor((span) => span.attributes["optigate.request_id"] === requestId)).toMatchObject({
      name: "GET /connect/userinfo",
      status: ERROR,
      attributes: { "http.response.status_code": 500 },
    });
  });
});
