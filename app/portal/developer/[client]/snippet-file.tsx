/** One file of a quick start: its name, its text in a scrollable block, and a button that copies it. */
import { getTranslations } from "next-intl/server";
import type { SnippetFile } from "@/lib/quick-start/quick-start-values";
import { CopyButton } from "@/app/_components/copy-button";

export async function SnippetFileBlock({ file, of }: { file: SnippetFile; of?: string }) {
  const t = await getTranslations("QuickStart");
  const named = of ? `${file.name} (${of})` : file.name;
  return (
    <div className="space-y-2" data-snippet-file={file.name}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 className="font-mono text-sm font-semibold text-slate-900">{file.name}</h4>
        <CopyButton
          text={file.text}
          label={t("copy")}
          name={t("copyNamed", { file: named })}
          copied={t("copied")}
          failed={t("copyFailed")}
        />
      </div>
      <pre
        tabIndex={0}
        aria-label={named}
        data-language={file.language}
        className="max-h-[32rem] overflow-auto rounded-md bg-slate-900 p-3 text-sm leading-relaxed text-slate-100"
      >
        <code>{file.text}</code>
      </pre>
    </div>
  );
}
