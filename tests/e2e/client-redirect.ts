import type { Page } from "@playwright/test";

/**
 * Runs `action` and returns where OptiGate then sent the browser on the client's side (query or fragment intact),
 * read from the Location header of OptiGate's redirect. No demo client runs on its port, so the browser's navigation
 * there fails; this waits until it has, so that the page can be used again.
 */
export async function redirectToClient(page: Page, clientOrigin: string, action: () => Promise<unknown>): Promise<URL> {
  const redirect = page.waitForResponse((response) =>
    (response.headers()["location"] ?? "").startsWith(`${clientOrigin}/`),
  );
  await action();
  const location = new URL((await redirect).headers()["location"]);
  await page.waitForURL((url) => !url.href.startsWith("http://localhost") || url.origin === clientOrigin);
  await page.waitForLoadState("load");
  return location;
}
