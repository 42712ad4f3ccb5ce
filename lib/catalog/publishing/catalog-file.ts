/**
 * Reads a master catalog file (docs/catalog-format.md, docs/catalog.xsd) as a stream of text: first the catalog
 * description, then the articles in batches, so that a file of any size is read in bounded memory (plus one key per
 * article for the duplicate check). Every rule of the format (catalog-format.ts) is checked, together with the ones
 * XSD 1.0 cannot express (end dates not before start dates). Each error names the line of the element it concerns.
 *
 * saxes is a strict, non-validating parser: it never loads external entities or expands entities of a DTD, so a
 * file cannot reach outside itself or blow up in memory.
 */
import { OptiGateError } from "@/lib/errors/optigate-error";
import { SaxesParser, type SaxesTagPlain } from "saxes";
import {
  articleAttributes,
  catalogAttributes,
  completedArticle,
  completedHeader,
  revisionAttributes,
  type CatalogDraft,
} from "@/lib/catalog/publishing/catalog-elements";
import {
  ARTICLE_BATCH_SIZE,
  ARTICLE_VALUES,
  CONTENT,
  country,
  DOCUMENT,
  MAX_REPORTED_ERRORS,
  MAX_TEXT_LENGTH,
  misplaced,
  readAttributes,
  text,
  TEXT_ONLY,
  UNEXPECTED,
  ValueError,
  type ArticleDraft,
  type CatalogFileError,
  type Frame,
} from "@/lib/catalog/publishing/catalog-format";
import type { CatalogHeader, ImportedArticle } from "@/lib/store/models/catalog";
import { MarkupRuns, MAX_RUN } from "@/lib/catalog/publishing/markup-runs";
import { englishProblemText, invalidValue, type CatalogProblem } from "@/lib/catalog/publishing/catalog-problems";

export interface CatalogFileHandlers {
  /** The description is complete: throw CatalogRefusal to refuse the file. Writes nothing: it runs for files with
   * errors too, so that one pass reports every problem. */
  check(header: CatalogHeader): Promise<void>;
  /** The description is complete and the file valid so far: prepare to take the articles (or throw CatalogRefusal). */
  header(header: CatalogHeader): Promise<void>;
  articles(batch: ImportedArticle[]): Promise<void>;
  /** The articles read so far, after each chunk of text: for a progress display. */
  progress?(articles: number): void;
}

/** A file that is well-formed and valid, but cannot be imported (e.g. for another supplier). */
export class CatalogRefusal extends OptiGateError<"catalog_refused"> {
  readonly code = "catalog_refused";
  constructor(readonly problem: CatalogProblem) {
    super(englishProblemText(problem));
  }
}

/** The reading of one file; `read` feeds it text chunks and hands the results to the handlers. */
class CatalogFileReader {
  readonly errors: CatalogFileError[] = [];
  unreported = 0; // errors beyond the MAX_REPORTED_ERRORS reported
  articleCount = 0;
  private readonly parser = new SaxesParser({ position: true });
  private readonly stack: Frame[] = [{ name: DOCUMENT, line: 1, position: 0, occurred: 0, text: "" }];
  private readonly seen = new Set<string>();
  private catalog: CatalogDraft = {
    description: { validCountries: [], productGroups: [] },
  };
  private article: ArticleDraft | undefined;
  private pendingHeader: CatalogHeader | undefined;
  private headerChecked = false;
  private headerDelivered = false;
  private batch: ImportedArticle[] = [];
  private stopped = false;
  private tagLine = 1;
  private readonly runs = new MarkupRuns();

  constructor(private readonly handlers: CatalogFileHandlers) {
    this.parser.on("xmldecl", (declaration) => {
      if (declaration.encoding && !/^utf-?8$/i.test(declaration.encoding))
        this.fail(1, { key: "encoding", values: { declared: declaration.encoding } });
    });
    this.parser.on("doctype", () => this.fail(this.parser.line, { key: "doctype" }));
    this.parser.on("opentagstart", () => (this.tagLine = this.parser.line));
    this.parser.on("opentag", (tag) => this.open(tag as SaxesTagPlain));
    this.parser.on("text", (value) => this.text(value));
    this.parser.on("cdata", (value) => this.text(value));
    this.parser.on("closetag", () => this.close());
    this.parser.on("error", (error) => {
      throw new NotWellFormed(this.parser.line, error.message.replace(/^\d+:\d+: /, "").replace(/\.$/, ""));
    });
  }

  get failed(): boolean {
    return this.errors.length > 0;
  }

  async read(chunks: AsyncIterable<string>): Promise<void> {
    let first = true;
    try {
      for await (const chunk of chunks) {
        if (!this.runs.withinLimit(chunk))
          return this.fail(this.parser.line, { key: "runTooLong", values: { max: MAX_RUN } }, true);
        this.parser.write(first ? chunk.replace(/^\uFEFF/, "") : chunk);
        first = false;
        if (this.stopped) return;
        await this.deliver(false);
        this.handlers.progress?.(this.articleCount);
      }
      this.parser.close();
      await this.deliver(true);
    } catch (error) {
      if (error instanceof NotWellFormed)
        this.fail(error.line, { key: "notWellFormed", values: { detail: error.message } }, true);
      else throw error;
    }
  }

  /** Records an error; reading goes on (to report every error in one pass) unless it cannot (`stop`). */
  private fail(line: number, problem: CatalogProblem, stop = false): void {
    if (this.errors.length < MAX_REPORTED_ERRORS)
      this.errors.push({ line, message: englishProblemText(problem), problem });
    else this.unreported++;
    if (stop) this.stopped = true;
  }

  /** Checks the description once; hands over what is ready unless the file has failed (then nothing is written). */
  private async deliver(end: boolean): Promise<void> {
    const header = this.pendingHeader;
    if (header && !this.headerChecked) {
      this.headerChecked = true;
      await this.refusable(header, () => this.handlers.check(header));
    }
    if (this.failed) return;
    if (header && !this.headerDelivered) {
      this.headerDelivered = true;
      await this.refusable(header, () => this.handlers.header(header));
    }
    while (this.batch.length >= ARTICLE_BATCH_SIZE || (end && this.batch.length > 0)) {
      await this.handlers.articles(this.batch.splice(0, ARTICLE_BATCH_SIZE));
    }
  }

  private async refusable(header: CatalogHeader, step: () => Promise<void>): Promise<void> {
    try {
      await step();
    } catch (error) {
      if (!(error instanceof CatalogRefusal)) throw error;
      this.fail(header.line, error.problem);
    }
  }

  private open(tag: SaxesTagPlain): void {
    const parent = this.stack[this.stack.length - 1];
    const line = this.tagLine;
    const frame: Frame = { name: tag.name, line, position: 0, occurred: 0, text: "" };
    this.stack.push(frame);
    if (!this.placeChild(parent, tag.name, line)) {
      frame.name = UNEXPECTED; // its content is neither checked nor taken
      return;
    }
    const attributes = this.checkAttributes(tag, line);
    if (!attributes) return;
    try {
      this.take(tag.name, attributes, line);
    } catch (error) {
      if (!(error instanceof ValueError)) throw error;
      this.fail(line, invalidValue(tag.name, error.problem));
      if (tag.name === "Article") this.article = { line, attributes: null, values: {} };
    }
  }

  /** Checks the child against the parent's content model; false (with an error) when it does not belong there. A
   * child that comes after required elements that are missing is taken, and only the missing ones are reported. */
  private placeChild(parent: Frame, child: string, line: number): boolean {
    const content = CONTENT[parent.name];
    if (!content) return false; // inside an unexpected element, which has been reported
    const missing: string[] = [];
    for (let index = parent.position; index < content.length; index++) {
      const [name, min, max] = content[index];
      const occurred = index === parent.position ? parent.occurred : 0;
      if (name === child && occurred < max) {
        for (const absent of missing)
          this.fail(line, { key: "missingChildBefore", values: { parent: parent.name, missing: absent, child } });
        parent.position = index;
        parent.occurred = occurred + 1;
        return true;
      }
      if (occurred < min) missing.push(name);
    }
    this.fail(line, misplaced(parent.name, child));
    return false;
  }

  private checkAttributes(tag: SaxesTagPlain, line: number): Record<string, string> | undefined {
    const { attributes, problems } = readAttributes(tag.name, tag.attributes);
    for (const problem of problems) this.fail(line, problem);
    if (problems.length > 0 && tag.name === "Article") this.article = { line, attributes: null, values: {} };
    return problems.length === 0 ? attributes : undefined;
  }

  /** Takes the attributes of an element that has its place; throws ValueError for a bad value. */
  private take(name: string, attributes: Record<string, string>, line: number): void {
    if (name === "Catalog") {
      const { description, ...identity } = catalogAttributes(attributes);
      Object.assign(this.catalog, { line, ...identity });
      Object.assign(this.catalog.description, description);
    } else if (name === "Revision") {
      Object.assign(this.catalog, revisionAttributes(attributes));
    } else if (name === "Articles") {
      this.pendingHeader = completedHeader(this.catalog);
    } else if (name === "Article") {
      this.article = { line, attributes: null, values: {} };
      this.article.attributes = articleAttributes(attributes);
    }
  }

  private text(value: string): void {
    const frame = this.stack[this.stack.length - 1];
    if (TEXT_ONLY.has(frame.name)) {
      if (frame.text.length + value.length > MAX_TEXT_LENGTH) {
        if (frame.text.length <= MAX_TEXT_LENGTH)
          this.fail(frame.line, invalidValue(frame.name, { key: "tooLong", values: { max: MAX_TEXT_LENGTH } }));
        frame.text = "x".repeat(MAX_TEXT_LENGTH + 1);
      } else {
        frame.text += value;
      }
    } else if (value.trim() !== "" && frame.name !== UNEXPECTED && frame.name !== DOCUMENT) {
      this.fail(this.parser.line, { key: "noText", values: { element: frame.name } });
    }
  }

  private close(): void {
    const frame = this.stack.pop()!;
    const content = CONTENT[frame.name] ?? [];
    for (let index = frame.position; index < content.length; index++) {
      const [name, min] = content[index];
      const occurred = index === frame.position ? frame.occurred : 0;
      if (occurred < min)
        this.fail(frame.line, { key: "missingChild", values: { parent: frame.name, min, child: name } });
    }
    try {
      this.closeValue(frame);
    } catch (error) {
      if (!(error instanceof ValueError)) throw error;
      this.fail(frame.line, invalidValue(frame.name, error.problem));
      if (this.article) this.article.attributes = null;
    }
    if (frame.name === "Article") this.completeArticle();
  }

  private closeValue(frame: Frame): void {
    const description = this.catalog.description;
    if (frame.name === "ValidCountry") description.validCountries!.push(country(frame.text));
    else if (frame.name === "ProductGroup") description.productGroups!.push(text(200)(frame.text));
    else if (this.article && frame.name in ARTICLE_VALUES) ARTICLE_VALUES[frame.name](this.article, frame.text);
  }

  private completeArticle(): void {
    const draft = this.article;
    this.article = undefined;
    const article = draft && completedArticle(draft);
    if (!draft || !article) return;
    const { articleNumber, customerGroup: group, startDate, endDate } = article;
    const key = `${group}\u0000${articleNumber}`;
    if (startDate && endDate && endDate < startDate)
      this.fail(draft.line, { key: "endBeforeStart", values: { element: "Article" } });
    else if (this.seen.has(key))
      this.fail(draft.line, { key: "duplicateArticle", values: { element: "Article", articleNumber, group } });
    else {
      this.seen.add(key);
      this.articleCount++;
      if (!this.failed) this.batch.push(article);
    }
  }
}

class NotWellFormed extends OptiGateError<"not_well_formed"> {
  readonly code = "not_well_formed";
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/** Reads the file, handing the description and articles to the handlers until the first error; reads on to find
 * every error (the first MAX_REPORTED_ERRORS as found, and how many more there are). */
export async function readCatalogFile(
  chunks: AsyncIterable<string>,
  handlers: CatalogFileHandlers,
): Promise<{ errors: CatalogFileError[]; unreported: number; articles: number }> {
  const reader = new CatalogFileReader(handlers);
  await reader.read(chunks);
  return { errors: reader.errors, unreported: reader.unreported, articles: reader.articleCount };
}
