/** JSON answers that no cache may keep: token responses and every protocol endpoint's answer (RFC 6749 §5.1). */
import { webResponse, type ProtocolResponse } from "@/lib/http/protocol-message";

export const NO_STORE_HEADERS = { "Cache-Control": "no-store", Pragma: "no-cache" };

export function noStoreBody(body: unknown, status = 200, headers: Record<string, string> = {}): ProtocolResponse {
  return {
    status,
    headers: { "Content-Type": "application/json", ...NO_STORE_HEADERS, ...headers },
    body: JSON.stringify(body),
  };
}

export function noStoreJson(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return webResponse(noStoreBody(body, status, headers));
}
