/**
 * Requests the Node deployment's lean front answers itself, writing each response as it is. Next.js drops
 * Content-Encoding and Content-Length from route handlers' responses (and compresses none of them), so only these
 * requests may get a compressed body; through Next.js alone a download goes out plain.
 */
import { processCache } from "@/lib/observability/process-cache";

const viaFront = processCache("frontRequests", () => new WeakSet<Request>());

export function markFrontRequest(request: Request): Request {
  viaFront.add(request);
  return request;
}

export const isFrontRequest = (request: Request): boolean => viaFront.has(request);
