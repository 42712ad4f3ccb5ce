/**
 * A supplier registration form refused at one of its fields, as the page shows it again: open, with what was typed
 * and the error at the field. It travels in a sealed one-time cookie (never in the URL), so it must fit in one.
 */
import { PAGES } from "@/lib/http/paths";
import { pageUrl } from "@/lib/http/see-other";

export type RefusedRegistrationForm =
  | { error: "invalid_groups"; registrationId: string; customerGroups?: string }
  | { error: "invalid_client_id"; supplierId: string; clientId?: string; catalogs?: string[] };

/** Registration, supplier and catalog ids: what can name a form on the page (and so sit in a URL's fragment). */
const ID = /^[A-Za-z0-9_.-]{1,64}$/;
const MAX_SEARCH_LENGTH = 100;
/** The typed values, as JSON: the sealed cookie grows by about a third and must stay well inside 4 KB. */
const MAX_TYPED_BYTES = 2000;

const fits = (refused: RefusedRegistrationForm) => Buffer.byteLength(JSON.stringify(refused)) <= MAX_TYPED_BYTES;

/** The refusal with what was typed, or without it when that is too long to carry; none for a form naming no form. */
export function refusedForm(
  form: URLSearchParams,
  error: RefusedRegistrationForm["error"],
): RefusedRegistrationForm | undefined {
  if (error === "invalid_groups") {
    const registrationId = form.get("registration_id") ?? "";
    if (!ID.test(registrationId)) return undefined;
    const typed = { error, registrationId, customerGroups: form.get("customer_groups") ?? "" };
    return fits(typed) ? typed : { error, registrationId };
  }
  const supplierId = form.get("supplier_id") ?? "";
  if (!ID.test(supplierId)) return undefined;
  const catalogs = form.getAll("catalog").filter((catalogId) => ID.test(catalogId));
  const typed = { error, supplierId, clientId: form.get("client_id") ?? "", catalogs };
  return fits(typed) ? typed : { error, supplierId };
}

/** The page with the refused form open (the request form under the same search), scrolled to the refused input. */
export function refusedFormLocation(refused: RefusedRegistrationForm, search: string): string {
  if (refused.error === "invalid_groups")
    return `${pageUrl(PAGES.suppliers, { confirm: `approve:${refused.registrationId}` })}#groups-${refused.registrationId}`;
  const q = search.slice(0, MAX_SEARCH_LENGTH) || refused.supplierId;
  return `${pageUrl(PAGES.suppliers, { q })}#client-id-${refused.supplierId}`;
}
