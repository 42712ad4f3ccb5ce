-- The audit trail as a stream (issue 48): the company an event concerns and the management API client that acted
-- (until now `byClientId` in the details) become columns, so that the trail can be filtered by them; every filter is
-- read newest first by (occurred_at, id), the keyset of the audit pages and the export, and so is the retention
-- purge (oldest first). Events recorded before name their company and client in the details, where they are read
-- from ({{json}} is the type a JSON text is read as: SQLite reads its text, PostgreSQL casts it to jsonb); a person's
-- events (details.subjectUserId) take the company the person belongs to now.

ALTER TABLE "audit_events" ADD COLUMN "company_id" TEXT;
ALTER TABLE "audit_events" ADD COLUMN "by_client_id" TEXT;

UPDATE "audit_events" SET "company_id" = CAST("details" AS {{json}}) ->> 'companyId'
    WHERE "details" LIKE '%"companyId":"%';
UPDATE "audit_events" SET "company_id" = (
        SELECT "users"."company_id" FROM "users"
            WHERE "users"."id" = CAST("audit_events"."details" AS {{json}}) ->> 'subjectUserId'
    )
    WHERE "company_id" IS NULL AND "details" LIKE '%"subjectUserId":"%';
UPDATE "audit_events" SET "by_client_id" = CAST("details" AS {{json}}) ->> 'byClientId'
    WHERE "details" LIKE '%"byClientId":"%';

DROP INDEX "audit_events_occurred_at_idx";
CREATE INDEX "audit_events_occurred_at_id_idx" ON "audit_events" ("occurred_at", "id");
CREATE INDEX "audit_events_company_id_occurred_at_id_idx" ON "audit_events" ("company_id", "occurred_at", "id");
CREATE INDEX "audit_events_by_client_id_occurred_at_id_idx" ON "audit_events" ("by_client_id", "occurred_at", "id");
