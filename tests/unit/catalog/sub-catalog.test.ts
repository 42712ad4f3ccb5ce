/** The pure rules of the sub-catalog: its query parameters, and an article as its reader sees it and as XML. */
import { describe, expect, it } from "vitest";
import { CatalogServiceError } from "@/lib/errors/catalog-service-error";
import {
  articleView,
  articleXml,
  parseSubCatalogQuery,
  type ArticleView,
  type PreparedSubCatalog,
} from "@/lib/catalog/sub-catalog";
import type { ArticleRow } from "@/lib/db/statements/catalog-articles";
import { thrown } from "../../helpers/thrown";

const query = (search: string) =>
  parseSubCatalogQuery(new URL(`https://optigate.example/getSubCatalog.ashx?${search}`));
const BASE = "companyID=lens-co&catalogResourceKey=catalog.xml&revision=2";

describe("parseSubCatalogQuery", () => {
  it.each([
    [BASE, { supplierCompanyId: "lens-co", catalogKey: "catalog.xml", revision: 2 }],
    [
      `${BASE}&ticket=T-1&clientGroupID=5`,
      { ticket: "T-1", supplierCompanyId: "lens-co", catalogKey: "catalog.xml", revision: 2, clientGroupId: 5 },
    ],
    [
      "companyID=%20lens-co%20&catalogResourceKey=K+&revision=+007&ticket=+&clientGroupID=",
      { supplierCompanyId: "lens-co", catalogKey: "K", revision: 7 },
    ],
    [
      `${BASE.replace("revision=2", "revision=999999999")}`,
      { supplierCompanyId: "lens-co", catalogKey: "catalog.xml", revision: 999_999_999 },
    ],
  ])("reads %s", (search, expected) => {
    expect(query(search)).toEqual({ ticket: undefined, clientGroupId: undefined, ...expected });
  });

  it.each([
    ["catalogResourceKey=K&revision=1", "The parameter companyID is missing."],
    ["companyID=&catalogResourceKey=K&revision=1", "The parameter companyID is missing."],
    ["companyID=+&catalogResourceKey=K&revision=1", "The parameter companyID is missing."],
    ["companyID=a&companyID=b&catalogResourceKey=K&revision=1", "The parameter companyID must not be repeated."],
    ["companyID=c&revision=1", "The parameter catalogResourceKey is missing."],
    [
      "companyID=c&catalogResourceKey=K&catalogResourceKey=K&revision=1",
      "The parameter catalogResourceKey must not be repeated.",
    ],
    ["companyID=c&catalogResourceKey=K", "The parameter revision is missing."],
    ["companyID=c&catalogResourceKey=K&revision=1&revision=2", "The parameter revision must not be repeated."],
    [
      "companyID=c&catalogResourceKey=K&revision=latest",
      'The parameter revision must be a whole number (got "latest").',
    ],
    ["companyID=c&catalogResourceKey=K&revision=-1", 'The parameter revision must be a whole number (got "-1").'],
    ["companyID=c&catalogResourceKey=K&revision=1.5", 'The parameter revision must be a whole number (got "1.5").'],
    [
      "companyID=c&catalogResourceKey=K&revision=1234567890",
      'The parameter revision must be a whole number (got "1234567890").',
    ],
    [`${BASE}&clientGroupID=gold`, 'The parameter clientGroupID must be a whole number (got "gold").'],
  ])("refuses %s with 400", (search, message) => {
    const error = thrown(CatalogServiceError, () => query(search));
    expect({ status: error.status, message: error.message }).toEqual({ status: 400, message });
  });
});

const row: ArticleRow = {
  articleNumber: "WL-100",
  customerGroup: 0,
  genericName: "Premium 1.6",
  purchasePriceCents: 4590,
  retailPriceCents: 11900,
  startDate: null,
  endDate: null,
  whiteLabel: 0,
};
const prepared = (withPrices: boolean, names: [string, string][] = []): PreparedSubCatalog => ({
  header: "",
  supplierCompanyId: "supplier",
  revisionId: "r",
  groups: [0],
  withPrices,
  names: new Map(names),
  changedAt: new Date(0),
  tag: "t",
});
const customer = prepared(true, [["WL-100", "Optik Müller Premium"]]);
const view: ArticleView = {
  articleNumber: "WL-100",
  customerGroup: 0,
  whiteLabel: false,
  name: "Premium 1.6",
  purchasePriceCents: 4590,
  retailPriceCents: 11900,
  startDate: null,
  endDate: null,
};

describe("articleView", () => {
  it.each<[string, ArticleRow, PreparedSubCatalog, ArticleView]>([
    ["a customer sees the purchase price", row, customer, view],
    ["a reader without a ticket sees purchase price 0", row, prepared(false), { ...view, purchasePriceCents: 0 }],
    [
      "an article without a purchase price shows 0",
      { ...row, purchasePriceCents: null },
      customer,
      { ...view, purchasePriceCents: 0 },
    ],
    [
      "a white-label article (SQLite's 1) under the customer's name",
      { ...row, whiteLabel: 1 },
      customer,
      { ...view, whiteLabel: true, name: "Optik Müller Premium" },
    ],
    [
      "a white-label article (PostgreSQL's true) under the customer's name",
      { ...row, whiteLabel: true },
      customer,
      { ...view, whiteLabel: true, name: "Optik Müller Premium" },
    ],
    [
      "a white-label article the customer has not named keeps its generic name",
      { ...row, whiteLabel: true },
      prepared(true),
      { ...view, whiteLabel: true },
    ],
    ["a customer's name for an article that is not white-label is not used", row, customer, view],
    [
      "dates and group as stored",
      { ...row, customerGroup: 5, startDate: "2026-01-01", endDate: "2026-12-31", retailPriceCents: null },
      customer,
      { ...view, customerGroup: 5, startDate: "2026-01-01", endDate: "2026-12-31", retailPriceCents: null },
    ],
  ])("%s", (_, article, reader, expected) => {
    expect(articleView(article, reader)).toEqual(expected);
  });
});

describe("articleXml", () => {
  it.each<[string, ArticleRow, PreparedSubCatalog, string]>([
    [
      "prices with two decimals",
      row,
      customer,
      '<Article articleNumber="WL-100" customerGroup="0" whiteLabel="false"><Name>Premium 1.6</Name>' +
        "<PurchasePrice>45.90</PurchasePrice><RetailPrice>119.00</RetailPrice></Article>\n",
    ],
    [
      "purchase price 0.00 without a ticket, no RetailPrice when there is none",
      { ...row, retailPriceCents: null },
      prepared(false),
      '<Article articleNumber="WL-100" customerGroup="0" whiteLabel="false"><Name>Premium 1.6</Name>' +
        "<PurchasePrice>0.00</PurchasePrice></Article>\n",
    ],
    [
      "dates as DD.MM.YYYY",
      { ...row, customerGroup: 7, startDate: "2026-03-01", endDate: "2026-12-31" },
      customer,
      '<Article articleNumber="WL-100" customerGroup="7" whiteLabel="false"><Name>Premium 1.6</Name>' +
        "<PurchasePrice>45.90</PurchasePrice><RetailPrice>119.00</RetailPrice>" +
        "<StartDate>01.03.2026</StartDate><EndDate>31.12.2026</EndDate></Article>\n",
    ],
    [
      "the customer's name, escaped",
      { ...row, articleNumber: 'A"1', whiteLabel: 1, purchasePriceCents: 5 },
      prepared(true, [['A"1', "Müller & Söhne <Premium>"]]),
      '<Article articleNumber="A&quot;1" customerGroup="0" whiteLabel="true"><Name>Müller &amp; Söhne &lt;Premium&gt;</Name>' +
        "<PurchasePrice>0.05</PurchasePrice><RetailPrice>119.00</RetailPrice></Article>\n",
    ],
  ])("%s", (_, article, reader, xml) => {
    expect(articleXml(article, reader)).toBe(xml);
  });
});
