/**
 * POST /interaction/company/clients: the API client forms of /portal/company, for the company's administrators:
 * create a client (a name and the company scopes to give), add a secret or disable one, remove a client. The rights
 * are checked in lib/rights/company-clients.ts; this turns what happened, or why it was refused, into the page after
 * it, through a sealed one-time cookie that carries a new secret the one time it is shown. Anyone else gets a plain
 * 403: no page offers them these forms.
 */
import { ClientMetadataError } from "@/lib/admin/client-metadata-error";
import { PAGES } from "@/lib/http/paths";
import { COMPANY_CLIENT_COOKIE } from "@/lib/http/flash-cookies";
import { readForm } from "@/lib/http/form-body";
import { sealedCookie } from "@/lib/http/sealed-cookie";
import { pageUrl, plainRefusal, seeOther } from "@/lib/http/see-other";
import { AccessDenied, actorOfRequest, type Actor } from "@/lib/rights/actor";
import {
  addOwnCompanyClientSecret,
  ClientRegistryError,
  CompanyClientError,
  createOwnCompanyClient,
  disableOwnCompanyClientSecret,
  removeOwnCompanyClient,
} from "@/lib/rights/company-clients";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";

export const COMPANY_CLIENT_ACTIONS = ["create", "secret-add", "secret-disable", "remove"] as const;
type CompanyClientAction = (typeof COMPANY_CLIENT_ACTIONS)[number];

/** What the page after a company API client form shows. */
export interface CompanyClientOutcome {
  action: CompanyClientAction | "";
  /** the message key of CompanyClients.problems, when refused */
  problem?: string;
  /** what the rule said, in English, shown under the message */
  detail?: string;
  clientId?: string;
  /** a secret just made (a new client's or an added one): shown this once */
  secret?: string;
  /** what was typed into a refused create form */
  typed?: { name: string; scopes: string[] };
}

/** Longer than any name or id the forms take, short enough to show back. */
const MAX_TYPED = 120;
const MAX_SCOPES = 20;

const fieldOf = (form: URLSearchParams, name: string) => (form.get(name) ?? "").slice(0, MAX_TYPED);
const scopesOf = (form: URLSearchParams) =>
  form
    .getAll("scope")
    .slice(0, MAX_SCOPES)
    .map((scope) => scope.slice(0, MAX_TYPED));

const ACTIONS: Record<CompanyClientAction, (actor: Actor, form: URLSearchParams) => Promise<CompanyClientOutcome>> = {
  create: async (actor, form) => {
    const { client, secret } = await createOwnCompanyClient(actor, {
      name: fieldOf(form, "name"),
      scopes: scopesOf(form),
    });
    return { action: "create", clientId: client.client_id, secret: secret.secret };
  },
  "secret-add": async (actor, form) => {
    const clientId = fieldOf(form, "client_id");
    const { secret } = await addOwnCompanyClientSecret(actor, clientId);
    return { action: "secret-add", clientId, secret };
  },
  "secret-disable": async (actor, form) => {
    const clientId = fieldOf(form, "client_id");
    await disableOwnCompanyClientSecret(actor, clientId, fieldOf(form, "secret_id"));
    return { action: "secret-disable", clientId };
  },
  remove: async (actor, form) => {
    const clientId = fieldOf(form, "client_id");
    await removeOwnCompanyClient(actor, clientId);
    return { action: "remove", clientId };
  },
};

/** The refusal as the page shows it: the rules' codes decide the message key, never their messages. */
function refusal(error: unknown, action: CompanyClientAction, form: URLSearchParams): CompanyClientOutcome | undefined {
  const typed = action === "create" ? { typed: { name: fieldOf(form, "name"), scopes: scopesOf(form) } } : {};
  const clientId = action === "create" ? {} : { clientId: fieldOf(form, "client_id") };
  if (error instanceof CompanyClientError) {
    const problem = error.code === "not_found" ? "client_not_found" : error.code;
    return { action, problem, detail: error.message, ...typed, ...clientId };
  }
  if (error instanceof ClientRegistryError) {
    const problem = error.code === "not_found" ? "secret_not_found" : "secret_already_disabled";
    return { action, problem, detail: error.message, ...clientId };
  }
  if (error instanceof ClientMetadataError)
    return { action, problem: "invalid_client", detail: error.message, ...typed };
  return undefined;
}

/** The page after the form, with the outcome in its one-time cookie. */
function answer(outcome: CompanyClientOutcome, config: { secretKey: string; publicUrl: string }): Response {
  const cookie = sealedCookie(COMPANY_CLIENT_COOKIE, outcome, { ...config, path: PAGES.company });
  return seeOther(
    `${PAGES.company}#${outcome.problem && outcome.action === "create" ? "api-client-new" : "api-clients"}`,
    [cookie],
  );
}

export async function handleCompanyClientSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { config } = context;
  const actor = await actorOfRequest(context, request);
  if (actor.kind !== "user") return seeOther(pageUrl(PAGES.login, { returnUrl: PAGES.company }));
  const form = await readForm(request);
  const action = COMPANY_CLIENT_ACTIONS.find((known) => known === form.get("action"));
  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl))
    return answer({ action: action ?? "", problem: "form_expired" }, config);
  if (!action) return answer({ action: "", problem: "unknown_action" }, config);
  try {
    return answer(await ACTIONS[action](actor, form), config);
  } catch (error) {
    if (error instanceof AccessDenied) return plainRefusal(403, "Forbidden");
    const refused = refusal(error, action, form);
    if (refused) return answer(refused, config);
    throw error;
  }
}
