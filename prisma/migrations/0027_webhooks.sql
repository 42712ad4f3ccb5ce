-- Signed webhooks (issue 48, Standard Webhooks): endpoints that receive events, the platform's (the operator's, no
-- company: every event) or a company's (its company's events only), each with its secret sealed under SECRET_KEY,
-- since it must be read to sign; and every delivery of an event to an endpoint, with its webhook-id, payload and the
-- outcome of its last attempt. The attempts themselves run through the outbox (kind 'webhook').

CREATE TABLE "webhook_endpoints" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "company_id" TEXT REFERENCES "companies" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "url" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "events" TEXT NOT NULL DEFAULT '[]',
    "secret_sealed" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabled_reason" TEXT,
    "failing_since" {{timestamp}},
    "registered_by_operator" BOOLEAN NOT NULL DEFAULT false,
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "webhook_endpoints_company_id_idx" ON "webhook_endpoints" ("company_id");

CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "endpoint_id" TEXT NOT NULL REFERENCES "webhook_endpoints" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "event_type" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_status" INTEGER,
    "last_error" TEXT,
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "queued_at" {{timestamp}} NOT NULL,
    "last_attempt_at" {{timestamp}},
    "delivered_at" {{timestamp}}
);
CREATE INDEX "webhook_deliveries_endpoint_id_created_at_idx" ON "webhook_deliveries" ("endpoint_id", "created_at");
CREATE INDEX "webhook_deliveries_created_at_idx" ON "webhook_deliveries" ("created_at");
