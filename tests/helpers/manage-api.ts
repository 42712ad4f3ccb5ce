/**
 * Calls the management API's real handler (the route file under app/manage/v1/), every response checked against the
 * API's own OpenAPI document, and makes management clients: an operator's (platform scopes) or a company's own
 * (company scopes, with its company_id), each with a client_credentials token.
 */
import { MANAGE_ROUTES, MANAGE_SCHEMAS } from "@/lib/api/manage/manage-routes";
import { manageOpenApiDocument } from "@/lib/api/manage/manage-openapi";
import { parseClientMetadata } from "@/lib/admin/client-metadata";
import { registerClient } from "@/lib/admin/client-registry";
import type { Stores } from "@/lib/store/stores";
import { ISSUER } from "./oauth-service";
import { clientToken, documentChecker, type ApiCallOptions } from "./platform-api";

type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE" | "HEAD";

export const MANAGE_DOCUMENT = manageOpenApiDocument(
  { publicUrl: ISSUER, apiUrl: ISSUER },
  MANAGE_ROUTES,
  MANAGE_SCHEMAS,
);
const checkAgainstManageDocument = documentChecker(MANAGE_DOCUMENT);

/** One management API call through the route file; the response and its JSON body, checked against the document. */
export async function manage(
  method: Method,
  path: string,
  options: ApiCallOptions = {},
): Promise<{ response: Response; body: any }> {
  const route = (await import("@/app/manage/v1/[...path]/route")) as Record<
    Exclude<Method, "HEAD">,
    (request: Request) => Promise<Response>
  >;
  const headers: Record<string, string> = {
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    ...options.headers,
  };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  // Next.js answers HEAD with the GET handler.
  const handler = route[method === "HEAD" ? "GET" : method];
  const response = await handler(new Request(`${ISSUER}/manage/v1${path}`, { method, headers, body }));
  if (method === "HEAD") return { response, body: undefined };
  return { response, body: await checkAgainstManageDocument(method, `/manage/v1${path}`, response) };
}

let registered = 0;

/**
 * A new management client and a token with all its scopes: without `companyId` an operator's (platform scopes), with
 * one a company's own (company scopes).
 */
export async function managementToken(
  stores: Stores,
  scopes: readonly string[],
  companyId?: string,
): Promise<{ clientId: string; token: string }> {
  const clientId = `manage-test-${++registered}-${Date.now()}`;
  const registration = parseClientMetadata(
    {
      client_id: clientId,
      grant_types: ["client_credentials"],
      token_endpoint_auth_method: "client_secret_basic",
      scope: scopes.join(" "),
      ...(companyId ? { company_id: companyId } : {}),
    },
    "platform",
  );
  await registerClient(stores, registration, { value: `${clientId}-secret` });
  return { clientId, token: await clientToken(clientId, `${clientId}-secret`, scopes.join(" ")) };
}
