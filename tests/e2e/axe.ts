/** axe against WCAG 2.2 level AA (and the A and AA rules of 2.0 and 2.1 it builds on), for any browser test's page. */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

const WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"];

/** axe's findings on the page as it stands, one line each. */
export async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_22_AA).analyze();
  return results.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id} at ${node.target.join(" ")}: ${node.failureSummary}`),
  );
}
