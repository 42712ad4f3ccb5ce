/** English wording of the operator CLI, whose output is English only (an operator tool, like its log lines). */

/** "1 article", "3 articles"; `plural` for nouns that do not just add an s. */
export function counted(count: number, noun: string, plural = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : plural}`;
}

/** "a", "a and b", "a, b and c". */
export function listed(items: readonly string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}
