/** Query values as pages receive them from Next.js. */

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** A value that was given once; repeated or absent values count as absent. */
export function single(value: string | string[] | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}
