/** A supplier's catalog as its file describes it (docs/catalog-format.md), and its articles as imported. */
export interface CatalogDescription {
  name: string;
  language: string;
  format: string;
  formatVersion: string;
  validCountries: string[];
  productGroups: string[];
}

export interface CatalogHeader {
  supplierId: string;
  catalogId: string;
  resourceKey: string;
  description: CatalogDescription;
  comment: string;
  validFrom: Date;
  validUntil: Date | null;
  /** Line of the Catalog element, for errors about the catalog as a whole. */
  line: number;
}

export interface ImportedArticle {
  articleNumber: string;
  genericName: string;
  customerGroup: number;
  purchasePriceCents: number;
  retailPriceCents: number | null;
  startDate: Date | null;
  endDate: Date | null;
  whiteLabel: boolean;
}

/** A supplier's catalog as stored: identified by catalog identifier (and the older resource key). */
export interface Catalog extends CatalogDescription {
  /** The row id, which revisions refer to. */
  id: string;
  supplierCompanyId: string;
  catalogId: string;
  resourceKey: string;
  createdAt: Date;
}

/** One revision of a catalog: imported incomplete, then completed and released. */
export interface CatalogRevision {
  id: string;
  /** The catalog's row id. */
  catalogId: string;
  number: number;
  comment: string;
  publishedAt: Date;
  released: boolean;
  complete: boolean;
  validFrom: Date;
  validUntil: Date | null;
  /** The description of the imported file, which the catalog takes when the revision is released. */
  catalogDescription: CatalogDescription | null;
}
