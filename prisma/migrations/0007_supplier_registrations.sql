-- Supplier registrations replace customer relationships: a lifecycle (requested, active, rejected, withdrawn) with a
-- status history and a version for optimistic concurrency. An active relationship becomes an active registration,
-- an inactive one a withdrawn registration. Backend clients may be given a company by the operator.

CREATE TABLE "supplier_registrations" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "optician_company_id" TEXT NOT NULL REFERENCES "companies" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "supplier_company_id" TEXT NOT NULL REFERENCES "companies" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "client_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "open" BOOLEAN,
    "customer_groups" TEXT NOT NULL DEFAULT '[]',
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE UNIQUE INDEX "supplier_registrations_optician_company_id_supplier_company_id_open_key" ON "supplier_registrations" ("optician_company_id", "supplier_company_id", "open");
CREATE INDEX "supplier_registrations_supplier_company_id_status_idx" ON "supplier_registrations" ("supplier_company_id", "status");

INSERT INTO "supplier_registrations" ("id", "optician_company_id", "supplier_company_id", "client_id", "status", "open", "customer_groups")
SELECT "id", "customer_company_id", "supplier_company_id", "client_id",
       CASE WHEN "active" THEN 'active' ELSE 'withdrawn' END,
       CASE WHEN "active" THEN true ELSE NULL END,
       "customer_groups"
FROM "customer_relationships";

CREATE TABLE "supplier_registration_changes" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "registration_id" TEXT NOT NULL REFERENCES "supplier_registrations" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "status" TEXT NOT NULL,
    "changed_by" TEXT NOT NULL,
    "changed_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "supplier_registration_changes_registration_id_idx" ON "supplier_registration_changes" ("registration_id");

INSERT INTO "supplier_registration_changes" ("id", "registration_id", "status", "changed_by")
SELECT "id", "id", "status", 'migration' FROM "supplier_registrations";

CREATE TABLE "registration_subscriptions" (
    "registration_id" TEXT NOT NULL REFERENCES "supplier_registrations" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "catalog_id" TEXT NOT NULL REFERENCES "catalogs" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "status" TEXT NOT NULL DEFAULT 'Subscribed',
    PRIMARY KEY ("registration_id", "catalog_id")
);
INSERT INTO "registration_subscriptions" SELECT "relationship_id", "catalog_id", "status" FROM "catalog_subscriptions";
DROP TABLE "catalog_subscriptions";
ALTER TABLE "registration_subscriptions" RENAME TO "catalog_subscriptions";

CREATE TABLE "registration_white_label_names" (
    "registration_id" TEXT NOT NULL REFERENCES "supplier_registrations" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "article_number" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    PRIMARY KEY ("registration_id", "article_number")
);
INSERT INTO "registration_white_label_names" SELECT "relationship_id", "article_number", "name" FROM "white_label_names";
DROP TABLE "white_label_names";
ALTER TABLE "registration_white_label_names" RENAME TO "white_label_names";

DROP TABLE "customer_relationships";

CREATE TABLE "change_counters" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "value" INTEGER NOT NULL DEFAULT 0
);

ALTER TABLE "clients" ADD COLUMN "company_id" TEXT REFERENCES "companies" ("id") ON DELETE SET NULL ON UPDATE CASCADE;
