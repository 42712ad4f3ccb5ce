-- Catalog domain: supplier details, catalogs with revisions and articles, suppliers' web services, customer
-- relationships with catalog subscriptions and white-label names.

ALTER TABLE "companies" ADD COLUMN "supplier_id" TEXT;
ALTER TABLE "companies" ADD COLUMN "name1" TEXT;
ALTER TABLE "companies" ADD COLUMN "name2" TEXT;
ALTER TABLE "companies" ADD COLUMN "portal_url" TEXT;

CREATE TABLE "catalogs" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "supplier_company_id" TEXT NOT NULL REFERENCES "companies" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "catalog_id" TEXT NOT NULL,
    "resource_key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "format" TEXT NOT NULL DEFAULT 'SPECTARIS',
    "format_version" TEXT NOT NULL,
    "valid_countries" TEXT NOT NULL DEFAULT '[]',
    "product_groups" TEXT NOT NULL DEFAULT '[]',
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE UNIQUE INDEX "catalogs_supplier_company_id_catalog_id_key" ON "catalogs" ("supplier_company_id", "catalog_id");
CREATE UNIQUE INDEX "catalogs_supplier_company_id_resource_key_key" ON "catalogs" ("supplier_company_id", "resource_key");

CREATE TABLE "catalog_revisions" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "catalog_id" TEXT NOT NULL REFERENCES "catalogs" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "number" INTEGER NOT NULL,
    "comment" TEXT NOT NULL DEFAULT '',
    "published_at" {{timestamp}} NOT NULL,
    "released" BOOLEAN NOT NULL DEFAULT false,
    "valid_from" {{timestamp}} NOT NULL,
    "valid_until" {{timestamp}}
);
CREATE UNIQUE INDEX "catalog_revisions_catalog_id_number_key" ON "catalog_revisions" ("catalog_id", "number");

CREATE TABLE "catalog_articles" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "revision_id" TEXT NOT NULL REFERENCES "catalog_revisions" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "article_number" TEXT NOT NULL,
    "generic_name" TEXT NOT NULL,
    "customer_group" INTEGER NOT NULL DEFAULT 0,
    "purchase_price_cents" INTEGER,
    "retail_price_cents" INTEGER,
    "start_date" {{timestamp}},
    "end_date" {{timestamp}},
    "white_label" BOOLEAN NOT NULL DEFAULT false
);
CREATE INDEX "catalog_articles_revision_id_customer_group_idx" ON "catalog_articles" ("revision_id", "customer_group");

CREATE TABLE "supplier_web_services" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "supplier_company_id" TEXT NOT NULL REFERENCES "companies" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "type" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "priority" INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX "supplier_web_services_supplier_company_id_idx" ON "supplier_web_services" ("supplier_company_id");

CREATE TABLE "customer_relationships" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "customer_company_id" TEXT NOT NULL REFERENCES "companies" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "supplier_company_id" TEXT NOT NULL REFERENCES "companies" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "client_id" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "customer_groups" TEXT NOT NULL DEFAULT '[]'
);
CREATE UNIQUE INDEX "customer_relationships_customer_company_id_supplier_company_id_key" ON "customer_relationships" ("customer_company_id", "supplier_company_id");

CREATE TABLE "catalog_subscriptions" (
    "relationship_id" TEXT NOT NULL REFERENCES "customer_relationships" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "catalog_id" TEXT NOT NULL REFERENCES "catalogs" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "status" TEXT NOT NULL DEFAULT 'Subscribed',
    PRIMARY KEY ("relationship_id", "catalog_id")
);

CREATE TABLE "white_label_names" (
    "relationship_id" TEXT NOT NULL REFERENCES "customer_relationships" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "article_number" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    PRIMARY KEY ("relationship_id", "article_number")
);
