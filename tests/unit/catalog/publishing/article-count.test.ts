/** The articles of a catalog file counted ahead of its import: start tags, whatever the chunk boundaries. */
import { describe, expect, it } from "vitest";
import { countArticleTags } from "@/lib/catalog/publishing/article-count";

async function* chunksOf(text: string, size: number): AsyncIterable<string> {
  for (let offset = 0; offset < text.length; offset += size) yield text.slice(offset, offset + size);
}

const article = (index: number) =>
  `<Article articleNumber="A-${index}" customerGroup="0"><Name>Glas</Name><PurchasePrice>1.00</PurchasePrice></Article>\n`;
const FILE = `<Catalog><Articles>\n${Array.from({ length: 300 }, (_, index) => article(index)).join("")}</Articles></Catalog>`;

describe("countArticleTags", () => {
  it.each([1, 2, 7, 8, 9, 64, 4096, FILE.length])(
    "counts each article once in chunks of %i characters",
    async (size) => {
      expect(await countArticleTags(chunksOf(FILE, size))).toBe(300);
    },
  );

  it("counts neither <Articles> nor closing tags, and takes tags written across lines or empty", async () => {
    const text = `<Articles></Articles><Article\n  articleNumber="x"></Article><Article/>`;
    expect(await countArticleTags(chunksOf(text, 3))).toBe(2);
  });
});
