/** Standard Webhooks signatures as OptiGate writes them, checked by the `standardwebhooks` package. */
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { newWebhookSecret, webhookHeaders, webhookSignature } from "@/lib/crypto/webhook-signature";

const body = JSON.stringify({ type: "user.created", timestamp: "2026-11-27T10:00:00.000Z", data: { userId: "u-1" } });

describe("webhook signatures", () => {
  it("makes whsec_ secrets of 32 random bytes, each different", () => {
    const [one, two] = [newWebhookSecret(), newWebhookSecret()];
    expect(one).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(one.slice(6), "base64")).toHaveLength(32);
    expect(one).not.toBe(two);
  });

  it("signs as the package verifies, now, and as the package signs", () => {
    const secret = newWebhookSecret();
    const headers = webhookHeaders(secret, "msg_2Lj8n0oTz", new Date(), body);
    expect(Object.keys(headers).sort()).toEqual(["webhook-id", "webhook-signature", "webhook-timestamp"]);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    const at = new Date("2026-11-27T10:00:00.000Z");
    expect(webhookSignature(secret, "msg_1", 1_795_773_600, body)).toBe(new Webhook(secret).sign("msg_1", at, body));
  });

  it("is refused by the package for another secret, body, id or an old timestamp", () => {
    const secret = newWebhookSecret();
    const headers = webhookHeaders(secret, "msg_1", new Date(), body);
    const refused = (check: () => unknown) => expect(check).toThrow(WebhookVerificationError);
    refused(() => new Webhook(newWebhookSecret()).verify(body, headers));
    refused(() => new Webhook(secret).verify(body.replace("u-1", "u-2"), headers));
    refused(() => new Webhook(secret).verify(body, { ...headers, "webhook-id": "msg_2" }));
    const old = webhookHeaders(secret, "msg_1", new Date(Date.now() - 3_600_000), body);
    refused(() => new Webhook(secret).verify(body, old));
  });
});
