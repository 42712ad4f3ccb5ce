-- Companies administered by the operator (`companies add|update`): each has a country (ISO 3166-1 alpha-2; NULL for
-- the companies made before, until the operator sets one), and a supplier identifier names one supplier only.

ALTER TABLE "companies" ADD COLUMN "country" TEXT;
CREATE UNIQUE INDEX "companies_supplier_id_key" ON "companies" ("supplier_id");
