/** One company sign-in action as a button: a small form that posts the action with the page's CSRF token. */
import { FORMS } from "@/lib/http/paths";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";

export function SsoActionButton({
  action,
  csrf,
  className,
  domain,
  children,
}: {
  action: string;
  csrf: string;
  className: string;
  /** the domain a domain action is about */
  domain?: string;
  children: React.ReactNode;
}) {
  return (
    <form method="post" action={FORMS.companySso}>
      <input type="hidden" name={CSRF_FIELD} value={csrf} />
      {domain ? <input type="hidden" name="domain" value={domain} /> : null}
      <button type="submit" name="action" value={action} className={className}>
        {children}
      </button>
    </form>
  );
}
