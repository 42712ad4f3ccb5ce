import { getTranslations } from "next-intl/server";
import type { AdminFormProblem } from "@/lib/forms/admin-form-problem";

/** A refused form's problem as a sentence in the page's language, with the refused value quoted where known. */
async function problemText(problem: AdminFormProblem): Promise<string> {
  const t = await getTranslations("Admin.problems");
  const text = t(problem.key, { reason: problem.reason ?? "" });
  return problem.value ? `${t("valueRefused", { value: problem.value })} ${text}` : text;
}

/** The sentences a page shows: at the input named by the problem, or above the form when it names none. */
export async function problemPlaces(problem: AdminFormProblem | undefined) {
  const text = problem ? await problemText(problem) : undefined;
  return {
    general: problem && !problem.field ? text : undefined,
    at: (id: string) => (problem?.field === id ? text : undefined),
  };
}
