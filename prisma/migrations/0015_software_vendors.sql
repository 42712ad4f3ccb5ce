-- Software vendors are companies too (CONTRACT §9: their developers register the company's applications). The kind
-- column's CHECK constraint cannot be changed in place on SQLite, and rebuilding the companies table would cascade
-- through every table that references it; a new column with the wider constraint takes the old one's place instead,
-- the same way on both databases. Its default only fills the rows during the copy.

ALTER TABLE "companies" ADD COLUMN "kind_new" TEXT NOT NULL DEFAULT 'operator'
    CHECK ("kind_new" IN ('eye_care_professional', 'supplier', 'operator', 'software_vendor'));
UPDATE "companies" SET "kind_new" = "kind";
ALTER TABLE "companies" DROP COLUMN "kind";
ALTER TABLE "companies" RENAME COLUMN "kind_new" TO "kind";
