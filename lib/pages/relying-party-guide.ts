/**
 * The guide for applications (docs/relying-parties.md) as its page shows it. The file is read at request time from
 * the working directory: the repository under `npm start`, `next start` and `npm run dev`; the traced standalone
 * output in the container and on Vercel, where next.config.mjs has the build trace it into that page's files.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { PAGES } from "@/lib/http/paths";
import { renderGuide, type GuidePages, type RenderedGuide } from "@/lib/pages/guide-markdown";

const RELYING_PARTY_GUIDE_FILE = path.join("docs", "relying-parties.md");

/** The documents of the repository that a page of OptiGate stands for; links to other files give way to their text. */
export const GUIDE_PAGES: GuidePages = {
  "relying-parties.md": PAGES.relyingPartyGuide,
  "platform-api.md": PAGES.apiDocs,
  "management-api.md": PAGES.manageDocs,
};

/** Read and rendered at each request: a few milliseconds, and an edit of the file shows without a restart. */
export async function relyingPartyGuide(): Promise<RenderedGuide> {
  return renderGuide(await readFile(path.join(process.cwd(), RELYING_PARTY_GUIDE_FILE), "utf8"), GUIDE_PAGES);
}
