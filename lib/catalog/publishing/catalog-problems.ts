/**
 * What is wrong with a catalog file, as a message key (CatalogProblems.* in messages/) with its values, so that the
 * upload page says it in the reader's language while the operator CLI, logs and tests read the English text.
 * A problem about a value names the element and, as its `reason`, what is wrong with the value.
 */
import { createTranslator } from "next-intl";
import english from "@/messages/en.json";

export type CatalogProblemKey = keyof (typeof english)["CatalogProblems"];

export interface CatalogProblem {
  key: CatalogProblemKey;
  values?: Record<string, string | number>;
  reason?: CatalogProblem;
}

/** A value the format does not allow, in the element named. */
export const invalidValue = (element: string, reason: CatalogProblem): CatalogProblem => ({
  key: "invalidValue",
  values: { element },
  reason,
});

/** Renders a message of the CatalogProblems namespace in one language. */
export type ProblemTranslator = (key: CatalogProblemKey, values: Record<string, string | number>) => string;

/** The problem in the translator's language, its reason rendered first and put in as `{reason}`. */
export function problemText(problem: CatalogProblem, translate: ProblemTranslator): string {
  const values = { ...problem.values };
  if (problem.reason) values.reason = problemText(problem.reason, translate);
  return translate(problem.key, values);
}

const inEnglish = createTranslator({ locale: "en", messages: english, namespace: "CatalogProblems" });

export const englishProblemText = (problem: CatalogProblem): string =>
  problemText(problem, (key, values) => inEnglish(key, values));
