import { describe, expect, it } from "vitest";
import { parseRangeHeader, resolveRange, slicedStream } from "@/lib/http/byte-ranges";
import { chunkSource } from "../../helpers/chunk-source";

describe("parseRangeHeader and resolveRange", () => {
  it.each([
    ["bytes=0-99", 1000, { start: 0, end: 99 }],
    ["bytes=100-", 1000, { start: 100, end: 999 }],
    ["bytes=-100", 1000, { start: 900, end: 999 }],
    ["bytes=-5000", 1000, { start: 0, end: 999 }],
    ["bytes=990-5000", 1000, { start: 990, end: 999 }],
    ["BYTES = 5 - 9", 1000, { start: 5, end: 9 }],
    ["bytes=1000-", 1000, "unsatisfiable"],
    ["bytes=-0", 1000, "unsatisfiable"],
    ["bytes=0-", 0, "unsatisfiable"],
  ])("%s of %i bytes → %j", (header, length, expected) => {
    expect(resolveRange(parseRangeHeader(header)!, length)).toEqual(expected);
  });

  it.each([
    null,
    "",
    "bytes=",
    "bytes=-",
    "bytes=5-2",
    "bytes=0-1,3-4",
    "items=0-1",
    "bytes=a-b",
    `bytes=${"1".repeat(16)}-`,
  ])("%j asks for no range the server honours", (header) => {
    expect(parseRangeHeader(header)).toBeNull();
  });
});

describe("slicedStream", () => {
  const text = async (stream: ReadableStream<Uint8Array>) =>
    Buffer.from(await new Response(stream).arrayBuffer()).toString();

  it("gives the bytes of the range across chunk boundaries and stops reading after its end", async () => {
    const chunks = ["abcde", "fghij", "klmno", "pqrst"];
    const one = chunkSource(chunks);
    expect(await text(slicedStream(one.stream, { start: 3, end: 11 }))).toBe("defghijkl");
    expect([one.pulls(), one.cancelled()]).toEqual([3, true]);
    expect(await text(slicedStream(chunkSource(chunks).stream, { start: 15, end: 19 }))).toBe("pqrst");
    expect(await text(slicedStream(chunkSource(chunks).stream, { start: 0, end: 0 }))).toBe("a");
  });
});
