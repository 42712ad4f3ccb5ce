/**
 * Suggestions for a mistyped name ("redirect_uri" for "redirect_uris", "client" for "clients"): the known name
 * closest by edit distance, when it is close enough to be what was meant.
 */

/** Edits (insert, delete, replace, swap two neighbours) from one text to the other, ignoring case. */
export function editDistance(from: string, to: string): number {
  const a = from.toLowerCase();
  const b = to.toLowerCase();
  // rows[i][j]: the distance between the first i characters of a and the first j of b
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  }
  return rows[a.length][b.length];
}

/** Names longer than this are not compared: a suggestion is for typos, and the table grows with both lengths. */
const MAX_COMPARED_LENGTH = 64;

/**
 * The known name the given one most likely means: at most one edit away, or one per three characters for longer
 * names; the first of the closest when several are as close. Undefined when none is that close.
 */
/** "companies" for "company", "clients" for "client": a plural is one mistake away, however it is spelt. */
const isPluralOf = (plural: string, singular: string) =>
  plural.toLowerCase() === `${singular.toLowerCase()}s` ||
  plural.toLowerCase() === singular.toLowerCase().replace(/y$/, "ies");

export function closestName(given: string, known: readonly string[]): string | undefined {
  if (given.length > MAX_COMPARED_LENGTH) return undefined;
  const allowed = Math.max(1, Math.floor(given.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = isPluralOf(name, given) ? 1 : editDistance(given, name);
    if (name !== given && distance <= allowed && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** ` (did you mean "x"?)` for the closest known name, or nothing. */
export function didYouMean(given: string, known: readonly string[]): string {
  const name = closestName(given, known);
  return name === undefined ? "" : ` (did you mean "${name}"?)`;
}
