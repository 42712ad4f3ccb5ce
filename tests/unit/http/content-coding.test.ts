import { gunzipSync, brotliDecompressSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compressedStream, negotiateCoding } from "@/lib/http/content-coding";
import { chunkSource } from "../../helpers/chunk-source";

describe("negotiateCoding", () => {
  it.each([
    [null, "identity"],
    ["", "identity"],
    ["gzip", "gzip"],
    ["gzip, br", "br"],
    ["br;q=0.5, gzip", "gzip"],
    ["gzip;q=0.001", "gzip"],
    ["*", "br"],
    ["*;q=0.5, br;q=0", "gzip"],
    ["identity", "identity"],
    ["identity;q=1, gzip;q=0.9", "identity"],
    ["identity;q=0, gzip;q=0.1", "gzip"],
    ["deflate, zstd", "identity"],
    ["gzip;q=1.5", "identity"],
    ["gzip;q=-1", "identity"],
    ["gzip;q=0.0001", "identity"],
    ["gzip ; Q = 0.5", "gzip"],
    ["gz ip, ,,;", "identity"],
  ])("%j → %s", (header, coding) => {
    expect(negotiateCoding(header)).toBe(coding);
  });

  it.each(["identity;q=0", "*;q=0", "gzip;q=0, br;q=0, identity;q=0", "*;q=0, deflate"])(
    "%j leaves nothing acceptable",
    (header) => {
      expect(negotiateCoding(header)).toBeUndefined();
    },
  );

  it("offers only what it is given", () => {
    expect(negotiateCoding("br, gzip", ["identity"])).toBe("identity");
    expect(negotiateCoding("gzip, identity;q=0", ["identity"])).toBeUndefined();
  });
});

const collect = async (stream: ReadableStream<Uint8Array>) => Buffer.from(await new Response(stream).arrayBuffer());

describe("compressedStream", () => {
  const chunks = Array.from({ length: 20 }, (_, page) => `<Page n="${page}">${"<Article/>".repeat(500)}</Page>\n`);

  it.each([
    ["gzip", gunzipSync],
    ["br", brotliDecompressSync],
  ] as const)("%s decompresses to the source, byte for byte", async (coding, decompress) => {
    const compressed = await collect(compressedStream(chunkSource(chunks).stream, coding));
    expect(decompress(compressed).toString()).toBe(chunks.join(""));
    expect(compressed.length).toBeLessThan(chunks.join("").length / 10);
  });

  it("reads the source only as its reader asks, and cancels it when the reader leaves", async () => {
    const source = chunkSource(chunks);
    const reader = compressedStream(source.stream, "gzip").getReader();
    // Flushed per chunk: the first chunk of the source gives output by itself.
    expect((await reader.read()).value!.length).toBeGreaterThan(0);
    expect(source.pulls()).toBe(1);
    await reader.cancel();
    expect(source.cancelled()).toBe(true);
    expect(source.pulls()).toBe(1);
  });

  it("fails when its source fails", async () => {
    const failing = new ReadableStream<Uint8Array>({
      pull() {
        throw new Error("database gone");
      },
    });
    await expect(collect(compressedStream(failing, "br"))).rejects.toThrow("database gone");
  });
});
