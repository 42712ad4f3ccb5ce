/**
 * The catalog part of the demo data set: Demo Lens AG publishes catalog.xml (German, DE; revisions 1
 * and 2 released, 3 not) and catalog_AT.xml (AT, revision 1 released); a second supplier publishes a catalog the
 * demo optician is not registered for. The optician (customer number 100234 at Demo Lens AG) is subscribed to
 * catalog.xml, belongs to customer group 5, and sees white-label article WL-100 under its own name.
 */

export interface DemoArticle {
  articleNumber: string;
  genericName: string;
  customerGroup: number;
  purchasePriceCents: number;
  retailPriceCents: number;
  whiteLabel?: boolean;
  startDate?: string;
  endDate?: string;
}

export interface DemoRevision {
  number: number;
  comment: string;
  publishedAt: string;
  released: boolean;
  validFrom: string;
  validUntil?: string;
  articles: DemoArticle[];
}

export interface DemoCatalog {
  supplierCompanyId: string;
  catalogId: string;
  resourceKey: string;
  name: string;
  language: string;
  formatVersion: string;
  validCountries: string[];
  productGroups: string[];
  revisions: DemoRevision[];
}

export const demoSuppliers = [
  {
    id: "demo-company-lens",
    supplierId: "DLAG",
    name1: "Demo Lens",
    name2: "AG",
    portalUrl: "https://portal.demo.test/suppliers/demo-lens",
  },
  {
    id: "demo-company-frames",
    name: "Frame Works GmbH",
    supplierId: "FWG",
    name1: "Frame Works",
    name2: "GmbH",
    portalUrl: "https://portal.demo.test/suppliers/frame-works",
  },
];

const lensArticles = (revision: number): DemoArticle[] => [
  {
    articleNumber: "SV-150",
    genericName: "Einstärkenglas 1.5",
    customerGroup: 0,
    purchasePriceCents: 1890 + revision * 10,
    retailPriceCents: 4900,
  },
  {
    articleNumber: "SV-160",
    genericName: "Einstärkenglas 1.6",
    customerGroup: 0,
    purchasePriceCents: 2990 + revision * 10,
    retailPriceCents: 7900,
  },
  {
    articleNumber: "PR-160",
    genericName: "Gleitsichtglas 1.6",
    customerGroup: 5,
    purchasePriceCents: 8990,
    retailPriceCents: 24900,
    startDate: "2026-01-01",
  },
  {
    articleNumber: "WL-100",
    genericName: "Premium-Glas 1.6",
    customerGroup: 0,
    purchasePriceCents: 4590,
    retailPriceCents: 11900,
    whiteLabel: true,
  },
  {
    articleNumber: "KL-030",
    genericName: "Monatslinse",
    customerGroup: 7,
    purchasePriceCents: 1290,
    retailPriceCents: 2900,
    endDate: "2027-12-31",
  },
];

export const demoCatalogs: DemoCatalog[] = [
  {
    supplierCompanyId: "demo-company-lens",
    catalogId: "catalog.xml",
    resourceKey: "DLAG-DE",
    name: "Demo Lens Katalog Deutschland",
    language: "de",
    formatVersion: "2.1",
    validCountries: ["DE"],
    productGroups: ["Brillengläser", "Kontaktlinsen"],
    revisions: [1, 2, 3].map((number) => ({
      number,
      comment: `Revision ${number}`,
      publishedAt: `2026-0${number + 2}-01T08:00:00.000Z`,
      released: number < 3,
      validFrom: `2026-0${number + 2}-01T00:00:00.000Z`,
      articles: lensArticles(number),
    })),
  },
  {
    supplierCompanyId: "demo-company-lens",
    catalogId: "catalog_AT.xml",
    resourceKey: "DLAG-AT",
    name: "Demo Lens Katalog Österreich",
    language: "de",
    formatVersion: "2.1",
    validCountries: ["AT"],
    productGroups: ["Brillengläser"],
    revisions: [
      {
        number: 1,
        comment: "Erste Ausgabe",
        publishedAt: "2026-04-01T08:00:00.000Z",
        released: true,
        validFrom: "2026-04-01T00:00:00.000Z",
        validUntil: "2027-03-31T00:00:00.000Z",
        articles: lensArticles(1).slice(0, 2),
      },
    ],
  },
  {
    supplierCompanyId: "demo-company-frames",
    catalogId: "catalog.xml",
    resourceKey: "FWG-DE",
    name: "Frame Works Fassungen",
    language: "de",
    formatVersion: "2.1",
    validCountries: ["DE", "AT"],
    productGroups: ["Fassungen"],
    revisions: [
      {
        number: 1,
        comment: "Kollektion 2026",
        publishedAt: "2026-02-01T08:00:00.000Z",
        released: true,
        validFrom: "2026-02-01T00:00:00.000Z",
        articles: [
          {
            articleNumber: "FR-1",
            genericName: "Vollrandfassung",
            customerGroup: 0,
            purchasePriceCents: 3900,
            retailPriceCents: 12900,
          },
        ],
      },
    ],
  },
];

export const demoWebServices = [
  {
    supplierCompanyId: "demo-company-lens",
    type: "PlaceOrder",
    name: "Demo Lens Bestellung",
    url: "https://services.demo.test/lens/order",
    priority: 1,
  },
  {
    supplierCompanyId: "demo-company-lens",
    type: "OrderResponse",
    name: "Demo Lens Auftragsstatus",
    url: "https://services.demo.test/lens/status",
    priority: 1,
  },
  {
    supplierCompanyId: "demo-company-lens",
    type: "OrderConfig",
    name: "Demo Lens Konfigurator",
    url: "https://services.demo.test/lens/config",
    priority: 2,
  },
  {
    supplierCompanyId: "demo-company-lens",
    type: "ASN",
    name: "Demo Lens Lieferavis",
    url: "https://services.demo.test/lens/asn",
    priority: 1,
  },
];

/**
 * The demo's supplier registrations: the optician's active one at Demo Lens (the customer link of its catalog
 * downloads) and a request of a second optician that supplier@demo.test can approve or reject. Only one
 * registration per optician and supplier may be open, hence the second optician company.
 */
export const demoRegistrations = [
  {
    opticianCompanyId: "demo-company-optician",
    supplierCompanyId: "demo-company-lens",
    clientId: "100234",
    status: "active",
    customerGroups: [5],
    catalogIds: ["catalog.xml"],
    whiteLabelNames: [{ articleNumber: "WL-100", name: "Augenoptik Demo Premium 1.6" }],
  },
  {
    opticianCompanyId: "demo-company-optician-sonne",
    supplierCompanyId: "demo-company-lens",
    clientId: "100871",
    status: "requested",
    customerGroups: [],
    catalogIds: ["catalog.xml", "catalog_AT.xml"],
    whiteLabelNames: [],
  },
];
