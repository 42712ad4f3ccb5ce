/** The answer to a form POST: 303 See Other (so that reloading does not post again), never cached. */
export function seeOther(location: string, setCookies: string[] = []): Response {
  const headers = new Headers({ Location: location, "Cache-Control": "no-store" });
  for (const cookie of setCookies) headers.append("Set-Cookie", cookie);
  return new Response(null, { status: 303, headers });
}

export function pageUrl(path: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams(
    Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return `${path}?${query}`;
}

/** A form POST refused before any page can say why (403 for the wrong user, 400 for a form no page sends). */
export const plainRefusal = (status: 400 | 403, text: string): Response =>
  new Response(`${text}\n`, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
