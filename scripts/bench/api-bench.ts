/**
 * The platform API part of `npm run bench`, on the catalog bench's data (500 suppliers, a 200,000-article revision)
 * and server: GET /v2/catalogs with bearer tokens next to the token endpoint's client_credentials rate in the same
 * run, getCatalogInfos with a ticket, and the JSON article pages of the large revision read one after another
 * (articles/s end to end, the server's peak memory growth).
 */
import type { ChildProcess } from "node:child_process";
import { LARGE_REVISION } from "./catalog-fixtures";
import { sampleMemory } from "./catalog-bench";
import type { Measure } from "./runner";

const basic = (id: string, secret: string) => ({
  authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`,
});
export const ARTICLE_PAGE_LIMIT = 5000;

// The bench reads a few known fields of the API's answers; their shapes are checked by the API's own tests.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function json(response: Response): Promise<any> {
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

export interface ArticlePagesMeasurement {
  articlesPerSecond: number;
  peakGrowthMb: number;
  articles: number;
}

/** Reads every JSON page of the large revision in turn, sampling the server's resident memory. */
async function readArticlePages(
  baseUrl: string,
  token: string,
  server: ChildProcess,
): Promise<ArticlePagesMeasurement> {
  const memory = sampleMemory(server);
  const started = performance.now();
  let articles = 0;
  let cursor: string | null = null;
  do {
    const query: string = `limit=${ARTICLE_PAGE_LIMIT}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const page: { items: unknown[]; next: string | null } = await json(
      await fetch(`${baseUrl}/v2/catalogs/DLAG/catalog.xml/revisions/${LARGE_REVISION}/articles?${query}`, {
        // Plain, as the target was set for (fetch would ask for br, which the pages now come in).
        headers: { authorization: `Bearer ${token}`, "accept-encoding": "identity" },
      }),
    );
    articles += page.items.length;
    cursor = page.next;
  } while (cursor);
  const seconds = (performance.now() - started) / 1000;
  return { articlesPerSecond: Math.round(articles / seconds), peakGrowthMb: memory.stop(), articles };
}

/** The API scenarios against a running server; `provider` labels them. */
export async function benchApi(
  baseUrl: string,
  server: ChildProcess,
  provider: string,
  userRefreshToken: string,
  measure: Measure,
): Promise<ArticlePagesMeasurement> {
  const tokenRequest = {
    method: "POST" as const,
    path: "/connect/token",
    headers: { ...basic("demo-backend", "demo-backend-secret"), "content-type": "application/x-www-form-urlencoded" },
  };
  const clientToken = (
    await json(
      await fetch(`${baseUrl}/connect/token`, {
        ...tokenRequest,
        body: "grant_type=client_credentials&scope=platform.catalogs.read",
      }),
    )
  ).access_token;
  const userToken = (
    await json(
      await fetch(`${baseUrl}/connect/token`, {
        method: "POST",
        headers: { ...basic("demo-web", "demo-web-secret"), "content-type": "application/x-www-form-urlencoded" },
        body: `grant_type=refresh_token&refresh_token=${userRefreshToken}`,
      }),
    )
  ).access_token;
  const { ticket } = await json(
    await fetch(`${baseUrl}/services/login/SilentLogin`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "username=optician%40demo.test&password=Optician%232026",
    }),
  );
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  await measure(`${provider} token endpoint client_credentials (API baseline)`, baseUrl, {
    ...tokenRequest,
    body: "grant_type=client_credentials",
  });
  await measure(`${provider} GET /v2/catalogs?limit=20, client token`, baseUrl, {
    method: "GET",
    path: "/v2/catalogs?limit=20",
    headers: bearer(clientToken),
  });
  await measure(`${provider} GET /v2/catalogs?limit=20, optician token`, baseUrl, {
    method: "GET",
    path: "/v2/catalogs?limit=20",
    headers: bearer(userToken),
  });
  await measure(`${provider} GET /v2/catalogs?limit=500, optician token`, baseUrl, {
    method: "GET",
    path: "/v2/catalogs?limit=500",
    headers: bearer(userToken),
  });
  await measure(`${provider} getCatalogInfos, 500 suppliers, ticket`, baseUrl, {
    method: "GET",
    path: `/getCatalogInfos.ashx?ticket=${ticket}`,
  });
  await readArticlePages(baseUrl, clientToken, server); // warm-up
  const pages = await readArticlePages(baseUrl, clientToken, server);
  console.log(
    `  ${`${provider} /v2 article pages of ${ARTICLE_PAGE_LIMIT}`.padEnd(48)} ${pages.articlesPerSecond} articles/s, peak memory +${pages.peakGrowthMb.toFixed(1)} MB, ${pages.articles} articles`,
  );
  return pages;
}
