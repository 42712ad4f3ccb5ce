import type { ReactNode } from "react";
import { getTranslations } from "next-intl/server";
import type { AdminFormProblem } from "@/lib/forms/admin-form-problem";

/**
 * A refused form's problem as a sentence in the page's language, with the refused value quoted where known. The JSON
 * view's validator speaks of the metadata's (English) field names; its words are marked as English for screen readers.
 */
export async function problemText(problem: AdminFormProblem): Promise<ReactNode> {
  const t = await getTranslations("Admin.problems");
  const text = t.rich(problem.key, {
    reason: () => (
      <span lang="en" className="font-mono">
        {problem.reason ?? ""}
      </span>
    ),
  });
  return problem.value ? (
    <>
      {t("valueRefused", { value: problem.value })} {text}
    </>
  ) : (
    text
  );
}

/** The sentences a page shows: at the input named by the problem, or above the form when it names none. */
export async function problemPlaces(problem: AdminFormProblem | undefined) {
  const text = problem ? await problemText(problem) : undefined;
  return {
    general: problem && !problem.field ? text : undefined,
    at: (id: string) => (problem?.field === id ? text : undefined),
  };
}
