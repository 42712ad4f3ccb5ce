/**
 * Responses whose body is written as it is produced (a sub-catalog can be tens of megabytes): the Node deployment's
 * lean front pipes them with backpressure instead of buffering them.
 */
import { processCache } from "@/lib/observability/process-cache";

const streamed = processCache("streamedResponses", () => new WeakSet<Response>());

export function markStreamed(response: Response): Response {
  streamed.add(response);
  return response;
}

export const isStreamed = (response: Response): boolean => streamed.has(response);
