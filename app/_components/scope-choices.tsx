import type { ScopeView } from "@/lib/rights/consent";

/**
 * The scopes a person is asked to allow, one ticked checkbox `scope` each (CONTRACT §6); `openid` cannot be left
 * out. The consent page and the device page ask alike.
 */
export function ScopeChoices({
  legend,
  requiredLabel,
  scopes,
}: {
  legend: string;
  requiredLabel: string;
  scopes: ScopeView[];
}) {
  return (
    <fieldset>
      <legend className="sr-only">{legend}</legend>
      <ul className="space-y-3">
        {scopes.map((scope) => (
          <li key={scope.name} className="flex gap-3 rounded-md border border-slate-200 p-3">
            <input
              id={`scope-${scope.name}`}
              type="checkbox"
              name="scope"
              value={scope.name}
              defaultChecked
              disabled={scope.required}
              className="mt-1 h-4 w-4 shrink-0 accent-brand-700"
            />
            <label htmlFor={`scope-${scope.name}`} className="text-sm">
              <span className="block font-medium text-slate-900">
                {scope.title}
                {scope.required ? (
                  <span className="ml-2 text-xs font-normal text-slate-600">({requiredLabel})</span>
                ) : null}
              </span>
              <span className="block text-slate-600">{scope.description}</span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
