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
