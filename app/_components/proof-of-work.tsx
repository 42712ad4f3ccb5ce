/**
 * A sign-in form's proof of work, where the page has a challenge for it (lib/pages/page-proof-of-work.ts): the
 * challenge the browser solves, and why a submission without a good solution came back.
 */
import type { Challenge } from "altcha-lib";
import { getTranslations } from "next-intl/server";
import { Alert } from "@/app/_components/ui";
import { ProofOfWorkField } from "@/app/_components/proof-of-work-field";
import { PROOF_FORM_ERRORS, PROOF_OF_WORK_FIELD } from "@/lib/proof-of-work/proof-gate";

export async function ProofOfWork({ challenge, error }: { challenge: Challenge | null; error?: string }) {
  if (!challenge) return null;
  const t = await getTranslations("ProofOfWork");
  const shownError = PROOF_FORM_ERRORS.find((code) => code === error);
  return (
    <div className="space-y-2">
      {shownError ? <Alert>{t(`errors.${shownError}`)}</Alert> : null}
      <ProofOfWorkField
        name={PROOF_OF_WORK_FIELD}
        challenge={challenge}
        texts={{ working: t("working"), progress: t("progress"), done: t("done"), failed: t("failed") }}
      />
    </div>
  );
}
