/**
 * When traces are exported (lib/observability/tracing.ts, start-tracing.ts): only with an OTLP endpoint and the SDK
 * not switched off; off, a statement runs without a span; stopping sends the spans still waiting in their batch, so
 * that a process that exits loses none.
 */
import { afterEach, describe, expect, it } from "vitest";
import { activeTracer, stopTracing, traceStatement, tracingWanted } from "@/lib/observability/tracing";
import { startTracing } from "@/lib/observability/start-tracing";
import { startOtlpReceiver } from "../../helpers/otlp-receiver";

const ENDPOINT = "http://127.0.0.1:4318";

afterEach(() => stopTracing());

describe("tracing", () => {
  it.each([
    [{}, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${ENDPOINT}/v1/traces` }, true],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "" }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_SDK_DISABLED: "true" }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_SDK_DISABLED: "false" }, true],
  ])("is wanted with %o: %s", (env, wanted) => {
    expect(tracingWanted(env)).toBe(wanted);
  });

  it("is off until started, and stopping it then does nothing", async () => {
    expect(activeTracer()).toBeUndefined();
    await stopTracing();
    expect(activeTracer()).toBeUndefined();
  });

  it("sends the spans still in their batch when stopped", async () => {
    const collector = await startOtlpReceiver();
    const saved = { ...process.env };
    Object.assign(process.env, {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      // Longer than the test: only the stop can send the span.
      OTEL_BSP_SCHEDULE_DELAY: "60000",
    });
    try {
      startTracing();
      startTracing(); // a second start in the same process changes nothing
      expect(await traceStatement("optigate_test_statement", "sqlite", async () => 42)).toBe(42);
      await expect(
        traceStatement("optigate_failing_statement", "sqlite", () => Promise.reject(new Error("locked"))),
      ).rejects.toThrow("locked");
      expect(collector.spans).toEqual([]);
      await stopTracing();
      expect(activeTracer()).toBeUndefined();
      expect(collector.spans.map(({ name, status, attributes }) => ({ name, status, attributes }))).toEqual([
        { name: "optigate_test_statement", status: 0, attributes: { "db.system.name": "sqlite" } },
        { name: "optigate_failing_statement", status: 2, attributes: { "db.system.name": "sqlite" } },
      ]);
    } finally {
      process.env = saved;
      await collector.close();
    }
  });
});
