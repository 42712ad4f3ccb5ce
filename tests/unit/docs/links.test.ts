/**
 * The links between README.md, CHANGELOG.md and docs/: every relative markdown link `[text](path)` or
 * `[text](path#anchor)` names a file that exists and, for a markdown target, an anchor that one of its headings
 * produces by GitHub's rules. Web and mail links are left alone; so is anything inside code. Also: every document in
 * docs/ is listed in the index, and the README stays a five-minute read (at most 200 lines).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");

function markdownFiles(directory: string): string[] {
  return readdirSync(path.join(ROOT, directory)).flatMap((name) => {
    const relative = path.join(directory, name);
    if (statSync(path.join(ROOT, relative)).isDirectory()) return markdownFiles(relative);
    return name.endsWith(".md") ? [relative] : [];
  });
}

const FILES = ["README.md", "CHANGELOG.md", ...markdownFiles("docs")];

/** The text outside fenced code blocks, line by line (fenced lines become empty, so line numbers stay). */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split("\n").map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return "";
    }
    return fenced ? "" : line;
  });
}

/** GitHub's anchor of a heading: lowercase, punctuation dropped but for hyphens and underscores, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1") // a link in a heading counts with its text
    .replace(/`/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors a document's headings produce; repeated headings get -1, -2, … as on GitHub. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

interface Link {
  line: number;
  target: string;
}

const INLINE_CODE = /`+[^`]*`+/g;
const LINK = /\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;
const EXTERNAL = /^(https?:|mailto:)/i;

/**
 * The relative links of a document, with their line; inline code and fenced blocks hold no links. Code spans and link
 * texts may run over a line break, so the prose is searched as a whole (code spans keep their line breaks).
 */
function relativeLinks(text: string): Link[] {
  const prose = proseLines(text)
    .join("\n")
    .replace(INLINE_CODE, (code) => code.replace(/[^\n]/g, "c"));
  return [...prose.matchAll(LINK)]
    .map((match) => ({ line: prose.slice(0, match.index).split("\n").length, target: match[1] }))
    .filter((link) => !EXTERNAL.test(link.target));
}

/** What is wrong with one link of `from`, or undefined when it leads somewhere. */
function brokenReason(from: string, target: string, read = (file: string) => readFileSync(file, "utf8")) {
  const [pathPart, anchor] = target.split("#", 2);
  const file = pathPart === "" ? path.join(ROOT, from) : path.resolve(path.dirname(path.join(ROOT, from)), pathPart);
  if (!existsSync(file)) return `${path.relative(ROOT, file)} does not exist`;
  if (anchor === undefined || !file.endsWith(".md")) return undefined;
  const anchors = anchorsOf(read(file));
  if (!anchors.has(anchor))
    return `no heading of ${path.relative(ROOT, file)} makes #${anchor} (it has ${[...anchors].join(", ")})`;
  return undefined;
}

const LINKS = FILES.flatMap((file) =>
  relativeLinks(readFileSync(path.join(ROOT, file), "utf8")).map(
    (link) => [`${file}:${link.line}`, link.target, file] as const,
  ),
);

describe("GitHub's heading anchors", () => {
  it.each([
    ["Quick start (about 3 minutes)", "quick-start-about-3-minutes"],
    ["Sign-in protocol (OAuth 2.0 and OpenID Connect)", "sign-in-protocol-oauth-20-and-openid-connect"],
    ["One request: a refresh at `POST /connect/token`", "one-request-a-refresh-at-post-connecttoken"],
    ["Browser app (SPA): code + PKCE", "browser-app-spa-code--pkce"],
    ["The sub-catalog (`GET /getSubCatalog.ashx`)", "the-sub-catalog-get-getsubcatalogashx"],
    ["Deploy on Vercel", "deploy-on-vercel"],
    ["Größen und Gültigkeit", "größen-und-gültigkeit"],
    ["snake_case stays", "snake_case-stays"],
    ["A [linked](other.md) heading", "a-linked-heading"],
  ])("%s → #%s", (heading, anchor) => {
    expect(slug(heading)).toBe(anchor);
  });

  it("numbers repeated headings and ignores headings in code", () => {
    const text = "# Tests\n## Tests\n```sh\n# a comment, not a heading\n```\n## Tests\n";
    expect([...anchorsOf(text)]).toEqual(["tests", "tests-1", "tests-2"]);
  });
});

describe("the link finder", () => {
  it("finds relative links with and without anchors and leaves the rest alone", () => {
    const text = [
      "See [ops](docs/operations.md), [health](docs/operations.md#health) and [here](#quick-start).",
      "Web [site](https://example.com/x.md), [mail](mailto:a@example.com), `[code](not-a-link.md)`.",
      "```md",
      "[fenced](not-a-link-either.md)",
      "```",
      '[titled](CHANGELOG.md "the changelog")',
      "a `code span over",
      "a line break` and [a link\nover one](docs/README.md)",
    ].join("\n");
    expect(relativeLinks(text)).toEqual([
      { line: 1, target: "docs/operations.md" },
      { line: 1, target: "docs/operations.md#health" },
      { line: 1, target: "#quick-start" },
      { line: 6, target: "CHANGELOG.md" },
      { line: 8, target: "docs/README.md" },
    ]);
  });

  it("reports a missing file and a missing anchor, and accepts what exists", () => {
    expect(brokenReason("README.md", "docs/no-such-file.md")).toBe("docs/no-such-file.md does not exist");
    expect(brokenReason("docs/README.md", "operations.md#no-such-heading")).toMatch(
      /^no heading of docs\/operations\.md makes #no-such-heading/,
    );
    expect(brokenReason("docs/README.md", "../README.md#quick-start", () => "## Quick start\n")).toBeUndefined();
    expect(brokenReason("README.md", "docs/catalog.xsd")).toBeUndefined();
  });
});

describe("the links between README, CHANGELOG and docs", () => {
  it("finds the documents and their links", () => {
    expect(FILES).toEqual(expect.arrayContaining(["README.md", "CHANGELOG.md", "docs/README.md"]));
    expect(LINKS.length).toBeGreaterThan(50);
  });

  it.each(LINKS)("%s → %s leads somewhere", (_where, target, file) => {
    expect(brokenReason(file, target)).toBeUndefined();
  });

  it("lists every document of docs/ in the index", () => {
    const listed = new Set(relativeLinks(readFileSync(path.join(ROOT, "docs/README.md"), "utf8")).map((l) => l.target));
    const documents = FILES.filter((file) => file.startsWith("docs/") && file !== "docs/README.md");
    expect(documents.filter((file) => !listed.has(path.relative("docs", file)))).toEqual([]);
  });

  it("keeps the README within 200 lines", () => {
    expect(readFileSync(path.join(ROOT, "README.md"), "utf8").trimEnd().split("\n").length).toBeLessThanOrEqual(200);
  });
});
