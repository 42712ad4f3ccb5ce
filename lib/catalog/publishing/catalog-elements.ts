/**
 * The attributes of a catalog file's elements as the values they stand for (each checked by catalog-format.ts,
 * throwing ValueError for a bad one), and the catalog header once its elements are read.
 */
import {
  code,
  comment,
  customerGroup,
  date,
  flag,
  format,
  formatVersion,
  language,
  text,
  ValueError,
  type ArticleDraft,
} from "@/lib/catalog/publishing/catalog-format";
import type { CatalogDescription, CatalogHeader, ImportedArticle } from "@/lib/store/models/catalog";

/** What the reader has gathered of the header so far. */
export type CatalogDraft = Partial<Omit<CatalogHeader, "description">> & { description: Partial<CatalogDescription> };

export function catalogAttributes(attributes: Record<string, string>) {
  return {
    supplierId: code(attributes.supplierID),
    catalogId: code(attributes.catalogID),
    resourceKey: code(attributes.resourceKey),
    description: {
      name: text(200)(attributes.name),
      language: language(attributes.language),
      format: format(attributes.format),
      formatVersion: formatVersion(attributes.formatVersion),
    },
  };
}

export function revisionAttributes(attributes: Record<string, string>) {
  const validFrom = date(attributes.validStartDate);
  const validUntil = attributes.validEndDate === undefined ? null : date(attributes.validEndDate);
  if (validUntil && validUntil < validFrom) throw new ValueError("validEndBeforeStart");
  return { comment: attributes.comment === undefined ? "" : comment(attributes.comment), validFrom, validUntil };
}

export function articleAttributes(attributes: Record<string, string>) {
  return {
    articleNumber: text(64)(attributes.articleNumber),
    customerGroup: customerGroup(attributes.customerGroup),
    whiteLabel: attributes.whiteLabel === undefined ? false : flag(attributes.whiteLabel),
  };
}

/** The header once the catalog's identity and revision are known; undefined while a part of it is missing. */
export function completedHeader(catalog: CatalogDraft): CatalogHeader | undefined {
  const {
    supplierId,
    catalogId,
    resourceKey,
    comment: revisionComment,
    validFrom,
    validUntil,
    line,
    description,
  } = catalog;
  if (!supplierId || !catalogId || !resourceKey || !validFrom || line === undefined) return undefined;
  return {
    supplierId,
    catalogId,
    resourceKey,
    comment: revisionComment ?? "",
    validFrom,
    validUntil: validUntil ?? null,
    line,
    description: description as CatalogDescription,
  };
}

/** The article once its attributes and required values are read; undefined when something is missing or wrong. */
export function completedArticle(draft: ArticleDraft): ImportedArticle | undefined {
  const { genericName, purchasePriceCents, retailPriceCents = null, startDate = null, endDate = null } = draft.values;
  if (!draft.attributes || genericName === undefined || purchasePriceCents === undefined) return undefined;
  return { ...draft.attributes, genericName, purchasePriceCents, retailPriceCents, startDate, endDate };
}
