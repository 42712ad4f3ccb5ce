/**
 * Catalog downloads with a real HTTP client against the running server: curl decompressing, revalidating with the
 * tag it saved, and continuing a cut download (`-C -`), as optician software on a shop's line would.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { adminCommand } from "./admin-command";

function hasCurl(): boolean {
  try {
    execFileSync("curl", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** curl with `args`; the status line and headers of the last answer, parsed. */
function curl(args: string[]): { status: number; headers: Record<string, string> } {
  const out = execFileSync("curl", ["--silent", "--show-error", "--dump-header", "-", "--output", ...args]).toString();
  const blocks = out.trim().split(/\r?\n\r?\n/);
  const [statusLine, ...lines] = blocks[blocks.length - 1].split(/\r?\n/);
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
  );
  return { status: Number(statusLine.split(" ")[1]), headers };
}

/** A released catalog of the demo lens supplier large enough to compress, in a country no other test lists. */
function publishLargeCatalog(baseURL: string, directory: string): void {
  const articles = Array.from(
    { length: 300 },
    (
      _,
      index,
    ) => `    <Article articleNumber="LU-${String(index).padStart(4, "0")}" customerGroup="${index % 3 === 0 ? 5 : 0}">
      <Name>Gleitsichtglas ${index}</Name>
      <PurchasePrice>${20 + (index % 50)}.50</PurchasePrice>
      <RetailPrice>99.00</RetailPrice>
    </Article>`,
  );
  const file = path.join(directory, "catalog_LU.xml");
  writeFileSync(
    file,
    `<?xml version="1.0" encoding="utf-8"?>
<Catalog supplierID="DLAG" catalogID="catalog_LU.xml" resourceKey="DLAG-LU" name="Demo Lens Luxemburg" language="de" format="SPECTARIS" formatVersion="2.1">
  <Revision comment="download test" validStartDate="2027-01-01"/>
  <ValidCountries><ValidCountry>LU</ValidCountry></ValidCountries>
  <ProductGroups><ProductGroup>Brillengläser</ProductGroup></ProductGroups>
  <Articles>
${articles.join("\n")}
  </Articles>
</Catalog>
`,
  );
  adminCommand(baseURL, "catalogs", "import", file);
  adminCommand(baseURL, "catalogs", "release", "DLAG", "catalog_LU.xml", "1");
}

test("curl downloads compressed, revalidates with the saved tag and continues a cut download", async ({
  request,
  baseURL,
}) => {
  test.skip(!hasCurl(), "curl is not installed here (apt package curl): this test needs the real client");
  const login = await request.post("/services/login/SilentLogin", {
    form: { username: "optician@demo.test", password: "Optician#2026" },
  });
  const { ticket } = await login.json();
  const directory = mkdtempSync(path.join(tmpdir(), "optigate-curl-"));
  publishLargeCatalog(baseURL!, directory);
  const url = `${baseURL}/getSubCatalog.ashx?${new URLSearchParams({ ticket, companyID: "demo-company-lens", catalogResourceKey: "DLAG-LU", revision: "1" })}`;
  const file = (name: string) => path.join(directory, name);

  const plain = curl([file("plain.xml"), url]);
  expect(plain.status).toBe(200);
  expect(plain.headers["content-encoding"]).toBeUndefined();
  const whole = readFileSync(file("plain.xml"));
  expect(whole.toString().match(/<\/Article>/g)).toHaveLength(300);

  const compressed = curl([file("compressed.xml"), "--compressed", url]);
  expect(compressed.status).toBe(200);
  // Plain `next start` drops a route handler's Content-Encoding, so OptiGate sends plain there; the Node server compresses.
  if (process.env.E2E_SERVER === "next") expect(compressed.headers["content-encoding"]).toBeUndefined();
  else expect(["br", "gzip"]).toContain(compressed.headers["content-encoding"]);
  expect(compressed.headers.vary).toBe("Accept-Encoding");
  expect(readFileSync(file("compressed.xml")).equals(whole)).toBe(true);

  const saved = curl([file("tagged.xml"), "--etag-save", file("etag"), url]);
  expect(saved.headers.etag).toBe(plain.headers.etag);
  const revalidated = curl([file("again.xml"), "--etag-compare", file("etag"), url]);
  expect(revalidated.status).toBe(304);

  // A download cut after 20,000 bytes, continued where the file ends.
  writeFileSync(file("cut.xml"), whole.subarray(0, 20_000));
  const continued = curl([file("cut.xml"), "--continue-at", "-", url]);
  expect(continued.status).toBe(206);
  expect(continued.headers["content-range"]).toBe(`bytes 20000-${whole.length - 1}/${whole.length}`);
  expect(readFileSync(file("cut.xml")).equals(whole)).toBe(true);
});
