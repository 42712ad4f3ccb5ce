/**
 * POST /interaction/admin: the operator pages' forms, with the same validation and registry as the CLI, through the
 * data-access layer (operators only). A newly created secret travels to the next page in a sealed, HttpOnly cookie
 * that lives two minutes (never in a URL).
 */
import { AccessDenied, actorOfRequest, isOperator } from "@/lib/rights/actor";
import {
  addClientSecret,
  ClientMetadataError,
  ClientRegistryError,
  disableClientSecret,
  registerClient,
  removeClient,
  setClientSecretExpiry,
  updateClient,
  type NewSecret,
} from "@/lib/rights/operator-clients";
import { readForm } from "@/lib/http/form-body";
import { NEW_SECRET_COOKIE } from "@/lib/http/flash-cookies";
import { sealedCookie } from "@/lib/http/sealed-cookie";
import { pageUrl, seeOther } from "@/lib/forms/see-other";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";

export type NewSecretShown = NewSecret;

const clientPath = (clientId: string) => `/admin/clients/${encodeURIComponent(clientId)}`;
const forbiddenResponse = () =>
  new Response("Forbidden\n", { status: 403, headers: { "Content-Type": "text/plain; charset=utf-8" } });

function parseDate(value: string | null): Date | null {
  if (!value) return null;
  const date = new Date(`${value}T23:59:59Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(date.getTime()) || !date.toISOString().startsWith(value))
    throw new ClientRegistryError("invalid_state", `"${value}" is not a date`);
  return date;
}

export async function handleAdminSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { config } = context;
  const actor = await actorOfRequest(context, request);
  // The data functions check this for every action; checking first gives everyone else one answer for all input.
  if (!isOperator(actor)) return forbiddenResponse();
  const form = await readForm(request);
  const clientId = form.get("client_id") ?? "";
  const back = form.get("action") === "register" ? "/admin/clients" : clientPath(clientId);
  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl))
    return seeOther(pageUrl(back, { error: "The form had expired. Please try again." }));

  const withSecret = (location: string, secret: NewSecret | undefined) =>
    seeOther(
      location,
      secret
        ? [
            sealedCookie(NEW_SECRET_COOKIE, secret, {
              secretKey: config.secretKey,
              publicUrl: config.publicUrl,
              path: "/admin",
            }),
          ]
        : [],
    );
  try {
    switch (form.get("action")) {
      case "register": {
        const { client, secret } = await registerClient(actor, form.get("metadata") ?? "");
        return withSecret(pageUrl(clientPath(client.id), { created: "1" }), secret);
      }
      case "update":
        await updateClient(actor, clientId, form.get("metadata") ?? "");
        return seeOther(pageUrl(clientPath(clientId), { saved: "1" }));
      case "remove":
        await removeClient(actor, clientId);
        return seeOther(pageUrl("/admin/clients", { removed: clientId }));
      case "secret-add":
        return withSecret(
          pageUrl(clientPath(clientId), { saved: "1" }),
          await addClientSecret(actor, clientId, {
            expiresAt: parseDate(form.get("expires")) ?? undefined,
            description: form.get("description") || undefined,
          }),
        );
      case "secret-expiry":
        await setClientSecretExpiry(actor, clientId, form.get("secret_id") ?? "", parseDate(form.get("expires")));
        return seeOther(pageUrl(clientPath(clientId), { saved: "1" }));
      case "secret-disable":
        await disableClientSecret(actor, clientId, form.get("secret_id") ?? "");
        return seeOther(pageUrl(clientPath(clientId), { saved: "1" }));
      default:
        return seeOther(pageUrl(back, { error: "Unknown action." }));
    }
  } catch (error) {
    if (error instanceof AccessDenied) return forbiddenResponse();
    if (error instanceof ClientMetadataError || error instanceof ClientRegistryError) {
      return seeOther(
        pageUrl(back, {
          error: error.message,
          draft: form.get("action") === "register" ? (form.get("metadata") ?? "") : undefined,
        }),
      );
    }
    throw error;
  }
}
