import { CSRF_FIELD } from "@/lib/pages/page-csrf";

/** The hidden fields every form of the client page posts: the CSRF token, the action and the client. */
export function ClientFormFields({ csrf, action, clientId }: { csrf: string; action: string; clientId: string }) {
  return (
    <>
      <input type="hidden" name={CSRF_FIELD} value={csrf} />
      <input type="hidden" name="action" value={action} />
      <input type="hidden" name="client_id" value={clientId} />
    </>
  );
}
