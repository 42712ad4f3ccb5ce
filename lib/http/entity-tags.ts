/**
 * Entity tags in conditional requests (RFC 9110 §8.8.3, §13.1.1, §13.1.2): a header is `*` or a comma-separated
 * list of tags, each `"opaque"` or weak `W/"opaque"`. If-None-Match compares weakly (W/"a" matches "a"), If-Match
 * strongly (a weak tag matches nothing).
 */

const TAG = /\s*(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"\s*(?:,|$)/y;

interface EntityTag {
  weak: boolean;
  opaque: string;
}

/** The tags of a header; undefined for `*`; an empty list when the header is malformed. */
function parseEntityTags(header: string): EntityTag[] | undefined {
  if (header.trim() === "*") return undefined;
  const tags: EntityTag[] = [];
  TAG.lastIndex = 0;
  while (TAG.lastIndex < header.length) {
    const match = TAG.exec(header);
    if (!match) return [];
    tags.push({ weak: match[1] !== undefined, opaque: match[2] });
    if (TAG.lastIndex === header.length) break;
  }
  return tags;
}

/** Does the conditional header name the current tag (`"opaque"`)? A missing header matches nothing. */
export function matchesEntityTag(header: string | null, current: string, comparison: "weak" | "strong"): boolean {
  if (header === null) return false;
  const tags = parseEntityTags(header);
  if (tags === undefined) return true;
  const opaque = current.replace(/^W\//, "").slice(1, -1);
  return tags.some((tag) => tag.opaque === opaque && (comparison === "weak" || !tag.weak));
}
