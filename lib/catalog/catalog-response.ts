/** The catalog services' XML answers; their refusals are plain text (catalogErrorAnswer in lib/http/error-answers). */
export function xmlResponse(body: string | ReadableStream<Uint8Array>, headers: Record<string, string> = {}): Response {
  return new Response(body, {
    status: 200,
    headers: { "Content-Type": "text/xml; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
}
