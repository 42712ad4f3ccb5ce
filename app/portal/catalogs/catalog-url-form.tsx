import { getTranslations } from "next-intl/server";
import { FORMS } from "@/lib/http/paths";
import { MAX_URI_LENGTH } from "@/lib/config/policy";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";
import { buttonSecondary } from "@/app/_components/ui";

const input = "mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm text-slate-900";

/**
 * The second way in: the address of a catalog file OptiGate fetches and imports as an upload, for files larger than
 * the hosting platform lets an upload be. A plain form, so that no file travels through the browser.
 */
export async function CatalogUrlForm({ csrf }: { csrf: string }) {
  const t = await getTranslations("Catalogs");
  return (
    <form method="post" action={FORMS.catalogs} className="mt-5 space-y-3 border-t border-slate-200 pt-4">
      <input type="hidden" name={CSRF_FIELD} value={csrf} />
      <input type="hidden" name="action" value="pull" />
      <label htmlFor="catalog-url" className="block text-sm font-medium text-slate-800">
        {t("urlLabel")}
      </label>
      <input
        id="catalog-url"
        name="url"
        type="url"
        inputMode="url"
        required
        maxLength={MAX_URI_LENGTH}
        placeholder="https://"
        aria-describedby="catalog-url-hint"
        className={input}
      />
      <p id="catalog-url-hint" className="text-xs text-slate-600">
        {t("urlHint")}
      </p>
      <button type="submit" className={`${buttonSecondary} sm:w-auto`}>
        {t("pullButton")}
      </button>
    </form>
  );
}
