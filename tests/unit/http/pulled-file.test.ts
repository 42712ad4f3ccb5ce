/**
 * Pulling a file from a URL, against a real HTTP server on the loopback: the text arrives whole and in order; every
 * refusal (URL, scheme, address at each redirect hop, status, size declared or streamed, timeout) has its code, and
 * says whether an address that is not public was involved.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_ADDRESS_RANGES, parseAddressRanges } from "@/lib/config/address-ranges";
import { pullFile, PullRefused, type PulledFile, type PullProblem } from "@/lib/http/pulled-file";
import { answer, endless, file, FileServer, stall } from "../../helpers/file-server";

const TEXT = "<Catalog>äöü €</Catalog>\n".repeat(2000);
const server = new FileServer({
  "/file.xml": file(TEXT),
  "/moved.xml": answer(301, { location: "/file.xml" }),
  "/loop": answer(302, { location: "/loop" }),
  "/to-metadata": answer(307, { location: "https://169.254.169.254/latest/file.xml" }),
  "/to-http": answer(302, { location: "http://files.example/file.xml" }),
  "/declared-huge.xml": answer(200, { "content-length": String(2 * 1024 * 1024) }, "<Catalog>"),
  "/endless.xml": endless("<Catalog>", "<!--" + "x".repeat(8000) + "-->"),
  "/stall.xml": stall("<Catalog>"),
  "/gone.xml": answer(410),
  "/no-location": answer(302),
});
const development = { production: false, allowed: parseAddressRanges("127.0.0.0/8") };
const limits = { maxBytes: 1024 * 1024, timeoutMs: 2000 };

async function text({ text: chunks }: PulledFile): Promise<string> {
  let whole = "";
  for await (const chunk of chunks) whole += chunk;
  return whole;
}

/** The PullRefused of pulling `url` and reading it to the end. */
async function refused(url: string, rules = development, given = limits): Promise<PullRefused> {
  const error = await pullFile(url, rules, given)
    .then(text)
    .then(
      () => undefined,
      (reason: unknown) => reason,
    );
  expect(error).toBeInstanceOf(PullRefused);
  return error as PullRefused;
}

/** The refusal's code and message. */
async function refusal(url: string, rules = development, given = limits): Promise<[PullProblem, string]> {
  const { code, message } = await refused(url, rules, given);
  return [code, message];
}

beforeAll(() => server.start());
afterAll(() => server.close());

describe("pullFile", () => {
  it("delivers the text whole, multi-byte characters across chunks included, also after a redirect", async () => {
    expect(await text(await pullFile(server.url("/file.xml"), development, limits))).toBe(TEXT);
    expect(await text(await pullFile(server.url("/moved.xml"), development, limits))).toBe(TEXT);
  });

  it.each<[string, PullProblem, string]>([
    ["not a url", "bad_url", "it is not an https URL of at most 2000 characters"],
    ["ftp://files.example/catalog.xml", "bad_url", "it is not an https URL"],
    [`https://files.example/${"x".repeat(2000)}`, "bad_url", "at most 2000 characters"],
    ["http://files.example/catalog.xml", "not_https", "it does not use https (http only on a loopback host"],
    [
      "https://169.254.169.254/catalog.xml",
      "not_public",
      "it is not at a public address (169.254.169.254 is link-local)",
    ],
    ["https://10.1.2.3/catalog.xml", "not_public", "(10.1.2.3 is private (RFC 1918))"],
  ])("refuses %s before connecting: %s", async (url, code, message) => {
    const [refused, said] = await refusal(url);
    expect([refused, said]).toEqual([code, expect.stringContaining(message)]);
  });

  it("refuses the loopback unless its range is allowed, outside production too: the URL is someone else's", async () => {
    const before = server.requests.length;
    expect(await refusal(server.url("/file.xml"), { production: false, allowed: NO_ADDRESS_RANGES })).toEqual([
      "not_public",
      "it is not at a public address (127.0.0.1 is loopback)",
    ]);
    expect(server.requests.length).toBe(before);
  });

  it("refuses http in production, and https to the loopback without a trusted certificate is unreachable", async () => {
    const production = { ...development, production: true };
    expect(await refusal(server.url("/file.xml"), production)).toEqual(["not_https", "it does not use https"]);
    const [code, message] = await refusal(server.url("/file.xml").replace("http:", "https:"), production);
    expect([code, message]).toEqual(["unreachable", expect.stringMatching(/^it could not be fetched \(.+\)$/)]);
  });

  it.each<[string, PullProblem, string]>([
    ["/gone.xml", "status", "it answered HTTP 410 instead of the file"],
    ["/no-location", "status", "it answered HTTP 302 instead of the file"],
    ["/loop", "redirects", "it redirects more than 3 times"],
    ["/to-metadata", "not_public", "it is not at a public address (169.254.169.254 is link-local)"],
    ["/to-http", "not_https", "it redirects to http://files.example, which does not use https"],
    ["/declared-huge.xml", "too_large", "it is larger than 1 MB"],
    ["/endless.xml", "too_large", "it is larger than 1 MB"],
  ])("refuses %s: %s", async (path, code, message) => {
    expect(await refusal(server.url(path))).toEqual([code, expect.stringContaining(message)]);
  });

  it("tells whether the file, or a refusal, involved an address that is not public", async () => {
    expect((await pullFile(server.url("/file.xml"), development, limits)).internal).toBe(true);
    const byName = server.url("/file.xml").replace("127.0.0.1", "localhost");
    const loopback = { production: false, allowed: parseAddressRanges("127.0.0.0/8,::1/128") };
    expect((await pullFile(byName, loopback, limits)).internal).toBe(true);
    // Refused before connecting anywhere.
    expect((await refused("not a url")).internal).toBe(false);
    expect((await refused("http://files.example/catalog.xml")).internal).toBe(false);
    // Refused as not public, and every failure once an internal address has answered.
    expect((await refused("https://10.1.2.3/catalog.xml")).internal).toBe(true);
    for (const path of ["/gone.xml", "/loop", "/to-http", "/to-metadata", "/declared-huge.xml", "/endless.xml"])
      expect((await refused(server.url(path))).internal, path).toBe(true);
    expect((await refused(server.url("/stall.xml"), development, { ...limits, timeoutMs: 300 })).internal).toBe(true);
    const closed = server.url("/file.xml").replace(/:\d+\//, ":1/");
    expect(await refused(closed)).toMatchObject({ code: "unreachable", internal: true });
  });

  it("gives the status answered with the refusal", async () => {
    const error = await pullFile(server.url("/gone.xml"), development, limits).catch((reason: unknown) => reason);
    expect((error as PullRefused).status).toBe(410);
  });

  it("gives up on a body that stops coming, within the time given", async () => {
    const started = Date.now();
    expect(await refusal(server.url("/stall.xml"), development, { ...limits, timeoutMs: 300 })).toEqual([
      "timeout",
      "it did not arrive whole within 0.3 s",
    ]);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
