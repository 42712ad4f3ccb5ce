/**
 * The guide's markdown as its page shows it: raw HTML escaped, dangerous links refused, headings with GitHub's ids,
 * links to repository files turned into pages or into their text; and the real guide, as the page reads it, naming
 * no file of the repository, with every link to a section finding its heading.
 */
import { describe, expect, it } from "vitest";
import { pageLink, renderGuide } from "@/lib/pages/guide-markdown";
import { GUIDE_PAGES, relyingPartyGuide } from "@/lib/pages/relying-party-guide";

const PAGES = { "platform-api.md": "/docs/api", "management-api.md": "/docs/manage" };

/** A path into the repository (not a page's path, which starts with a slash), or a file name of its kinds. */
const REPOSITORY_PATH =
  /(?<![\w/.-])(?:\.{1,2}\/)*(?:app|lib|docs|tests|scripts|examples|prisma|messages|public)\/[\w./-]+|\b[\w-]+\.(?:md|ts|tsx|mjs)\b/;

const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]);
const text = (html: string) => html.replace(/<[^>]*>/g, " ");

describe("a guide's markdown on its page", () => {
  it("escapes raw HTML and refuses script links", () => {
    const { html } = renderGuide(
      '<script>alert(1)</script>\n\n<img src="x" onerror="alert(2)">\n\n[click](javascript:alert(3)) [data](data:text/html,x)',
      PAGES,
    );
    expect(html).not.toMatch(/<script|<img|<a /);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&lt;img src=&quot;x&quot; onerror=&quot;alert(2)&quot;&gt;");
  });

  it("gives headings GitHub's ids and leaves out the first-level one, which the page's title replaces", () => {
    const guide = renderGuide(
      "# The guide\n\n## Browser app (SPA): code + PKCE\n\n### Errors\n\n## Errors\n\n### Errors\n\n## `resource` in short",
      PAGES,
    );
    expect(guide.html).not.toContain("The guide");
    expect(guide.sections).toEqual([
      { id: "browser-app-spa-code--pkce", text: "Browser app (SPA): code + PKCE" },
      { id: "errors-1", text: "Errors" },
      { id: "resource-in-short", text: "resource in short" },
    ]);
    expect(guide.html).toContain('<h3 id="errors">Errors</h3>');
    expect(guide.html).toContain('<h3 id="errors-2">Errors</h3>');
  });

  it.each([
    ["#section", "#section"],
    ["https://example.com/a", "https://example.com/a"],
    ["mailto:someone@example.com", "mailto:someone@example.com"],
    ["management-api.md", "/docs/manage"],
    ["./platform-api.md#scopes", "/docs/api#scopes"],
    ["second-factor.md#for-applications", undefined],
    ["../examples/nextjs-authjs", undefined],
    ["/lib/oauth/token.ts", undefined],
  ])("leads a link to %s to %s", (href, expected) => {
    expect(pageLink(href, PAGES)).toBe(expected);
  });

  it("keeps the text of a link to a repository file, and shows images as their text", () => {
    const { html } = renderGuide(
      "See [the example](../examples/nextjs-authjs), [the API](platform-api.md) and ![a diagram](docs/flow.png).",
      PAGES,
    );
    expect(html).toBe('<p>See the example, <a href="/docs/api">the API</a> and a diagram.</p>\n');
  });
});

describe("the guide for applications", () => {
  it.each([
    ["checked by tests/integration/admin/guide.test.ts", true],
    ["see ../examples/nextjs-authjs", true],
    ["(second-factor.md)", true],
    ["scripts/demo-device.ts", true],
    ["the page /docs/manage", false],
    ["https://shop.example.com/api/auth/callback/optigate and com.example.myapp:/callback", false],
  ])("tells a repository path in %s: %s", (written, found) => {
    expect(REPOSITORY_PATH.test(written)).toBe(found);
  });

  it("names no file of the repository, in its links or its text", async () => {
    const { html } = await relyingPartyGuide();
    const pages = Object.values(GUIDE_PAGES);
    const elsewhere = (href: string) => /^(#|https:\/\/|mailto:)/.test(href) || pages.includes(href.split("#")[0]);
    expect(hrefs(html).filter((href) => !elsewhere(href) || /\.md\b/.test(href))).toEqual([]);
    expect(text(html).match(REPOSITORY_PATH)).toBeNull();
  });

  it("finds the heading of every link to a section, and lists its sections", async () => {
    const { html, sections } = await relyingPartyGuide();
    const ids = new Set([...html.matchAll(/ id="([^"]+)"/g)].map((match) => match[1]));
    const anchors = hrefs(html).filter((href) => href.startsWith("#"));
    expect(anchors.length).toBeGreaterThan(0);
    expect(anchors.filter((href) => !ids.has(href.slice(1)))).toEqual([]);
    expect(sections).toContainEqual({
      id: "resource-indicators-rfc-8707-a-token-for-one-api",
      text: "Resource indicators (RFC 8707): a token for one API",
    });
    expect(Object.values(GUIDE_PAGES)).toContain("/docs/manage");
    expect(hrefs(html)).toContain("/docs/manage");
  });
});
