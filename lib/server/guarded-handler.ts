/**
 * The outermost layer of every route handler: whatever escapes the handler becomes a plain answer without internals
 * (a body over the limit 413, one that did not arrive 400; anything else unexpected is logged here and answered
 * 500), and every answer carries
 * HSTS when OptiGate is served over https (when Next.js serves alone, nothing else adds it).
 */
import { getConfig } from "@/lib/config";
import { BodyTooLargeError, RequestBodyError } from "@/lib/http/form-body";
import { strictTransportSecurity } from "@/lib/http/page-security-headers";

export type Handler = (request: Request) => Promise<Response>;

const plain = (status: number, text: string) => new Response(`${text}\n`, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

function withTransportSecurity(response: Response): Response {
  const hsts = strictTransportSecurity(getConfig().publicUrl);
  if (hsts && !response.headers.has("Strict-Transport-Security")) response.headers.set("Strict-Transport-Security", hsts);
  return response;
}

async function answer(handle: Handler, request: Request): Promise<Response> {
  try {
    return await handle(request);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return plain(413, `The request body is too large (at most ${error.limit} bytes).`);
    if (error instanceof RequestBodyError) return plain(error.status, "The request body did not arrive in full.");
    console.error(`${request.method} ${new URL(request.url).pathname} failed:`, error);
    return plain(500, "Something went wrong on our side. Please try again later.");
  }
}

export function guardedHandler(handle: Handler): Handler {
  return async (request) => withTransportSecurity(await answer(handle, request));
}
