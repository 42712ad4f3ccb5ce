-- Catalog publishing: a revision being imported is incomplete until its last article is written, and carries the
-- catalog description of its file, which becomes the catalog's when the revision is released. Articles are unique
-- per number and customer group within a revision; that index also orders the sub-catalog download.

ALTER TABLE "catalog_revisions" ADD COLUMN "complete" BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE "catalog_revisions" ADD COLUMN "catalog_description" TEXT;

DROP INDEX "catalog_articles_revision_id_customer_group_idx";
CREATE UNIQUE INDEX "catalog_articles_revision_id_article_number_customer_group_key" ON "catalog_articles" ("revision_id", "article_number", "customer_group");
