/**
 * A small OpenTelemetry collector for tests: an HTTP server on 127.0.0.1 that takes trace exports in OTLP's JSON
 * encoding (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`, POST /v1/traces) and keeps their spans, flattened to what
 * tests compare: ids, name, kind, status and attributes.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

type AttributeValue = string | number | boolean;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** absent on a root span */
  parentSpanId?: string;
  name: string;
  /** OTLP's SpanKind: 2 server, 3 client */
  kind: number;
  /** OTLP's status code: 0 unset, 1 ok, 2 error */
  status: number;
  /** the instrumentation scope that made the span ("optigate", "prisma", "next.js") */
  scope: string;
  attributes: Record<string, AttributeValue>;
}

export interface OtlpReceiver {
  /** the base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it */
  url: string;
  spans: ReceivedSpan[];
  /** The first span received that `matches`, waiting up to `timeoutMs` for it. */
  waitFor(matches: (span: ReceivedSpan) => boolean, timeoutMs?: number): Promise<ReceivedSpan>;
  close(): Promise<void>;
}

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean };
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  status?: { code?: number };
  attributes?: OtlpAttribute[];
}

interface OtlpExport {
  resourceSpans?: { scopeSpans?: { scope?: { name?: string }; spans?: OtlpSpan[] }[] }[];
}

const attributeValue = ({ value }: OtlpAttribute): AttributeValue =>
  value.stringValue ?? value.boolValue ?? value.doubleValue ?? Number(value.intValue);

function flatten(body: OtlpExport): ReceivedSpan[] {
  return (body.resourceSpans ?? []).flatMap((resource) =>
    (resource.scopeSpans ?? []).flatMap((scoped) =>
      (scoped.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
        name: span.name,
        kind: span.kind,
        status: span.status?.code ?? 0,
        scope: scoped.scope?.name ?? "",
        attributes: Object.fromEntries(
          (span.attributes ?? []).map((attribute) => [attribute.key, attributeValue(attribute)]),
        ),
      })),
    ),
  );
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method !== "POST" || request.url !== "/v1/traces") return void response.writeHead(404).end();
      spans.push(...flatten(JSON.parse(Buffer.concat(chunks).toString("utf8")) as OtlpExport));
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    async waitFor(matches, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = spans.find(matches);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no such span among ${spans.map((span) => span.name).join(", ")}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
