/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): a secret is `whsec_` and the base64 of 32 random
 * bytes; a delivery carries `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature`, `v1,` and the
 * base64 HMAC-SHA256, under the decoded secret, of `<id>.<timestamp>.<body>`. Receivers check it with any Standard
 * Webhooks library and refuse timestamps far from their clock (replays).
 */
import { createHmac, randomBytes } from "node:crypto";

const PREFIX = "whsec_";
const SECRET_BYTES = 32;

export const newWebhookSecret = (): string => `${PREFIX}${randomBytes(SECRET_BYTES).toString("base64")}`;

/** `v1,<base64 HMAC-SHA256>` of the delivery. */
export function webhookSignature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(PREFIX.length), "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`;
}

/** The three headers of a delivery signed at `at`. */
export function webhookHeaders(secret: string, id: string, at: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": webhookSignature(secret, id, timestamp, body),
  };
}
