/**
 * What /device hands on once a person entered a right user code: the request's id, sealed together with their session
 * (a key of its own from SECRET_KEY), so that the confirmation page and the decision work for that session only and
 * the user code itself never travels again. The request's own state and expiry decide whether it still counts.
 */
import { seal, unseal } from "@/lib/crypto/secret-box";

export const deviceRequestTicket = (requestId: string, sessionId: string, secretKey: string): string =>
  seal(JSON.stringify({ requestId, sessionId }), secretKey, "device-request");

/** The request id of a ticket sealed for this session; undefined for a forged one, or another session's. */
export function ticketRequestId(ticket: string, sessionId: string, secretKey: string): string | undefined {
  try {
    const opened = JSON.parse(unseal(ticket, secretKey, "device-request")) as {
      requestId?: unknown;
      sessionId?: unknown;
    };
    return opened.sessionId === sessionId && typeof opened.requestId === "string" ? opened.requestId : undefined;
  } catch {
    return undefined;
  }
}
