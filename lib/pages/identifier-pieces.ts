/**
 * Where a line may break inside an identifier (a client id, a catalog id, an issuer's URL): only after its own
 * separators, never inside a word. Short runs are kept together, so "demo-backend" stays whole while a column can still
 * be narrower than a 64-character id.
 */

/** The separators of OptiGate's identifiers: client ids (letters, digits, `. _ : -`), URLs and email addresses. */
const PART = /[^-._:/@]*(?:[-._:/@]+|$)/g;

/**
 * The identifier in pieces that each end after a separator (the last at the id's end), as long as they can be without
 * passing `longest` characters; a part longer than that is one piece of its own.
 */
export function identifierPieces(id: string, longest = 20): string[] {
  const pieces: string[] = [];
  for (const part of id.match(PART)?.filter(Boolean) ?? []) {
    const last = pieces.length - 1;
    if (last >= 0 && pieces[last].length + part.length <= longest) pieces[last] += part;
    else pieces.push(part);
  }
  return pieces;
}
