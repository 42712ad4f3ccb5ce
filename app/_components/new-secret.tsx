/** A secret made just now and shown this once (a client's secret, a webhook's signing secret), with a copy button. */
import { CopyButton } from "@/app/_components/copy-button";

interface NewSecretProps {
  title: string;
  secret: string;
  /** the copy button's texts, in the words of the section it stands in */
  labels: { copy: string; copied: string; failed: string };
}

export function NewSecret({ title, secret, labels }: NewSecretProps) {
  return (
    <div role="status" className="rounded-md border border-green-300 bg-green-50 p-3 text-sm text-green-900">
      <p className="font-medium">{title}</p>
      <div className="mt-2 flex flex-col items-start gap-2 sm:flex-row sm:items-center">
        <code
          data-new-secret
          className="block w-full min-w-0 flex-1 rounded bg-white px-3 py-2 font-mono break-all select-all"
        >
          {secret}
        </code>
        <CopyButton text={secret} label={labels.copy} copied={labels.copied} failed={labels.failed} />
      </div>
    </div>
  );
}
