/**
 * Markdown of a guide in docs/ as a page shows it: raw HTML is escaped (markdown-it with `html: false`, which also
 * refuses javascript: and data: links), headings get the ids GitHub gives them so that links to sections work on
 * the page as in the repository, and links to other files of the repository either become the page that stands for
 * that file or give way to their text. Images are shown as their text: a page loads nothing from elsewhere.
 */
import GithubSlugger from "github-slugger";
import MarkdownIt, { type Token } from "markdown-it";

export interface RenderedGuide {
  /** The second-level headings, for the page's table of contents. */
  sections: { id: string; text: string }[];
  /** Without the first-level heading: the page shows its own title instead. */
  html: string;
}

/** Repository files that a page stands for, by their name as a link in the guide writes it. */
export type GuidePages = Record<string, string>;

const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

/** Where a link of the guide leads on the page, or undefined where it named a file of the repository. */
export function pageLink(href: string, pages: GuidePages): string | undefined {
  if (href.startsWith("#") || /^(https?:|mailto:)/i.test(href)) return href;
  const [file, fragment] = href.replace(/^\.\//, "").split("#", 2);
  const page = pages[file];
  return page === undefined ? undefined : fragment ? `${page}#${fragment}` : page;
}

/** The text of an inline token, as GitHub slugs headings: text and code without the markup. */
function plainText(inline: Token | undefined): string {
  return (inline?.children ?? []).map((child) => (child.type === "image" ? "" : child.content)).join("");
}

function linkInline(children: Token[], pages: GuidePages): Token[] {
  const dropped: boolean[] = [];
  const kept: Token[] = [];
  for (const token of children) {
    if (token.type === "link_open") {
      const href = pageLink(String(token.attrGet("href") ?? ""), pages);
      dropped.push(href === undefined);
      if (href === undefined) continue;
      token.attrSet("href", href);
    } else if (token.type === "link_close" && dropped.pop()) continue;
    else if (token.type === "image") {
      token.type = "text";
      token.content = plainText(token);
      token.children = null;
    }
    kept.push(token);
  }
  return kept;
}

export function renderGuide(source: string, pages: GuidePages): RenderedGuide {
  const tokens = markdown.parse(source, {});
  const slugger = new GithubSlugger();
  const sections: RenderedGuide["sections"] = [];
  let titled = false;
  const shown: Token[] = [];
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    if (token.type === "inline" && token.children) token.children = linkInline(token.children, pages);
    if (token.type === "heading_open") {
      const text = plainText(tokens[index + 1]);
      const level = Number(token.tag.slice(1));
      const id = slugger.slug(text); // counted as on GitHub, where the title takes its slug too
      if (level === 1 && !titled) {
        titled = true;
        index += 2; // its inline text and its closing tag
        continue;
      }
      token.attrSet("id", id);
      if (level === 2) sections.push({ id, text });
    }
    shown.push(token);
  }
  return { sections, html: markdown.renderer.render(shown, markdown.options, {}) };
}
