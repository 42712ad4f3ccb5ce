import { getTranslations } from "next-intl/server";

/** The shape of a master catalog file, one article of each kind: what a supplier's software has to write. */
const EXAMPLE = `<?xml version="1.0" encoding="utf-8"?>
<Catalog supplierID="DLAG" catalogID="catalog.xml" resourceKey="DLAG-DE"
         name="Demo Lens Katalog Deutschland" language="de"
         format="SPECTARIS" formatVersion="2.1">
  <Revision comment="Frühjahr 2027" validStartDate="2027-03-01"
            validEndDate="2027-12-31"/>
  <ValidCountries>
    <ValidCountry>DE</ValidCountry>
  </ValidCountries>
  <ProductGroups>
    <ProductGroup>Brillengläser</ProductGroup>
  </ProductGroups>
  <Articles>
    <Article articleNumber="SV-150" customerGroup="0">
      <Name>Einstärkenglas 1.5</Name>
      <PurchasePrice>12.40</PurchasePrice>
      <RetailPrice>49.00</RetailPrice>
    </Article>
    <Article articleNumber="WL-100" customerGroup="5" whiteLabel="true">
      <Name>Premium-Glas 1.6</Name>
      <PurchasePrice>31.00</PurchasePrice>
      <StartDate>2027-03-01</StartDate>
      <EndDate>2027-09-30</EndDate>
    </Article>
  </Articles>
</Catalog>`;

export async function CatalogExample() {
  const t = await getTranslations("Catalogs");
  return (
    <details className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm">
      <summary className="cursor-pointer font-medium text-slate-800">{t("exampleTitle")}</summary>
      <pre lang="de" className="mt-2 overflow-x-auto text-xs leading-relaxed text-slate-800">
        <code>{EXAMPLE}</code>
      </pre>
    </details>
  );
}
