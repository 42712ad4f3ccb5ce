/**
 * POST /interaction/admin: the operator pages' forms, with the same validation and registry as the CLI. A newly
 * created secret travels to the next page in a sealed, HttpOnly cookie that lives two minutes (never in a URL).
 */
import { ClientMetadataError, parseClientMetadata } from "@/lib/admin/client-metadata";
import {
  addClientSecret,
  ClientRegistryError,
  disableClientSecret,
  registerClient,
  removeClient,
  setClientSecretExpiry,
  updateClient,
  type NewSecret,
} from "@/lib/admin/client-registry";
import { isOperator } from "@/lib/admin/operator-guard";
import { deriveKey, seal } from "@/lib/crypto/secret-box";
import { serializeCookie } from "@/lib/http/cookies";
import { isFormRequest } from "@/lib/http/request-parameters";
import { pageUrl, seeOther } from "@/lib/interaction/see-other";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";
import { findActiveSession, isSecureOrigin, readSessionCookie } from "@/lib/session/login-session";

export const NEW_SECRET_COOKIE = "optigate_new_secret";
const clientPath = (clientId: string) => `/admin/clients/${encodeURIComponent(clientId)}`;

function parseDate(value: string | null): Date | null {
  if (!value) return null;
  const date = new Date(`${value}T23:59:59Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(date.getTime())) throw new ClientRegistryError("invalid_state", `"${value}" is not a date`);
  return date;
}

function parseMetadata(text: string, apiScopePrefix: string, clientId?: string) {
  let metadata: unknown;
  try {
    metadata = JSON.parse(text);
  } catch (error) {
    throw new ClientMetadataError("invalid_client_metadata", `the client metadata is not valid JSON: ${(error as Error).message}`);
  }
  if (clientId !== undefined && typeof metadata === "object" && metadata !== null) (metadata as Record<string, unknown>).client_id = clientId;
  return parseClientMetadata(metadata, apiScopePrefix);
}

export async function handleAdminSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { db, config } = context;
  const form = isFormRequest(request) ? new URLSearchParams(await request.text()) : new URLSearchParams();
  const session = await findActiveSession(db, readSessionCookie(request));
  if (!(await isOperator(db, session))) return new Response("Forbidden", { status: 403, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const clientId = form.get("client_id") ?? "";
  const back = form.get("action") === "register" ? "/admin/clients" : clientPath(clientId);
  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl)) return seeOther(pageUrl(back, { error: "The form had expired. Please try again." }));

  const withSecret = (location: string, secret: NewSecret | undefined) =>
    seeOther(
      location,
      secret
        ? [serializeCookie(NEW_SECRET_COOKIE, seal(JSON.stringify(secret), deriveKey(config.secretKey, "cookie")), { secure: isSecureOrigin(config.publicUrl), path: "/admin", maxAgeSeconds: 120 })]
        : [],
    );
  try {
    switch (form.get("action")) {
      case "register": {
        const { client, secret } = await registerClient(db, parseMetadata(form.get("metadata") ?? "", config.apiScopePrefix));
        return withSecret(pageUrl(clientPath(client.id), { created: "1" }), secret);
      }
      case "update":
        await updateClient(db, clientId, parseMetadata(form.get("metadata") ?? "", config.apiScopePrefix, clientId));
        return seeOther(pageUrl(clientPath(clientId), { saved: "1" }));
      case "remove":
        await removeClient(db, clientId);
        return seeOther(pageUrl("/admin/clients", { removed: clientId }));
      case "secret-add":
        return withSecret(pageUrl(clientPath(clientId), { saved: "1" }), await addClientSecret(db, clientId, { expiresAt: parseDate(form.get("expires")) ?? undefined, description: form.get("description") || undefined }));
      case "secret-expiry":
        await setClientSecretExpiry(db, clientId, form.get("secret_id") ?? "", parseDate(form.get("expires")));
        return seeOther(pageUrl(clientPath(clientId), { saved: "1" }));
      case "secret-disable":
        await disableClientSecret(db, clientId, form.get("secret_id") ?? "");
        return seeOther(pageUrl(clientPath(clientId), { saved: "1" }));
      default:
        return seeOther(pageUrl(back, { error: "Unknown action." }));
    }
  } catch (error) {
    if (error instanceof ClientMetadataError || error instanceof ClientRegistryError) {
      return seeOther(pageUrl(back, { error: error.message, draft: form.get("action") === "register" ? (form.get("metadata") ?? "") : undefined }));
    }
    throw error;
  }
}
