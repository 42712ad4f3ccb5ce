-- Activity per hour (issue 51): what the operator's and the companies' dashboards chart (sign-ins, failures and
-- lock-outs, tokens by grant, catalog downloads), by kind and company ('' where none is concerned), so that a chart
-- over seven days reads a few hundred rows, never the audit trail.

CREATE TABLE "activity_counts" (
    "hour" {{timestamp}} NOT NULL,
    "company_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    PRIMARY KEY ("hour", "company_id", "kind")
);
CREATE INDEX "activity_counts_company_id_hour_idx" ON "activity_counts" ("company_id", "hour");
