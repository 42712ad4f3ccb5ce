/**
 * saxes holds a text, an attribute value, a name or a comment whole until it ends, so one 100 MB text would sit in
 * memory. A run of more characters than MAX_RUN without `<` or `>` is refused: no field of a catalog comes near it.
 */
export const MAX_RUN = 64 * 1024;

/** Follows the runs between markup characters across the chunks of one file. */
export class MarkupRuns {
  /** Characters since the last `<` or `>`. */
  private run = 0;

  /** Whether the chunk keeps every run between markup characters within MAX_RUN (runs may span chunks). */
  withinLimit(chunk: string): boolean {
    let start = 0;
    let lt = chunk.indexOf("<");
    let gt = chunk.indexOf(">");
    while (lt >= 0 || gt >= 0) {
      const markup = lt < 0 ? gt : gt < 0 ? lt : Math.min(lt, gt);
      if (this.run + markup - start > MAX_RUN) return false;
      this.run = 0;
      start = markup + 1;
      if (markup === lt) lt = chunk.indexOf("<", start);
      else gt = chunk.indexOf(">", start);
    }
    this.run += chunk.length - start;
    return this.run <= MAX_RUN;
  }
}
