/** What a platform API route handler gets: the request, its path parameters and the actor behind its access token. */
import type { Actor } from "@/lib/rights/actor";
import { textResponse } from "@/lib/http/streamed-response";
import type { ServiceContext } from "@/lib/service-context";

export interface ApiCall {
  request: Request;
  url: URL;
  params: Record<string, string>;
  actor: Actor;
  context: ServiceContext;
}

export type ApiHandler = (call: ApiCall) => Promise<Response>;

/** A JSON answer from text already serialized. */
export function jsonTextResponse(text: string, status = 200, headers: Record<string, string> = {}): Response {
  return textResponse(text, {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", ...headers },
  });
}

export const jsonResponse = (body: unknown, status = 200, headers: Record<string, string> = {}): Response =>
  jsonTextResponse(JSON.stringify(body), status, headers);
