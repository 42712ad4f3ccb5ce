/**
 * /manage/v1/clients: the registered clients as the operator's client pages and `clients add|update|show|remove|
 * approve|reject|secret` keep them (lib/rights/operator-clients.ts, the same registry functions), for an operator's
 * management client. A client is RFC 7591 metadata; a change replaces it and needs If-Match. A secret's value is
 * shown once, when it is made, and never again. Company-scoped clients reach none of this.
 */
import type { ManageRoute } from "@/lib/api/manage/manage-call";
import { manageOperation, pathId, writeProblems } from "@/lib/api/manage/manage-openapi";
import { json, ref } from "@/lib/api/openapi-schemas";
import {
  addClient,
  addSecret,
  deleteClient,
  disableSecret,
  getClient,
  listClientsPage,
  replaceClient,
  reviewing,
  setSecretExpiry,
} from "@/lib/api/manage/client-handlers";

export { CLIENT_SCHEMAS } from "@/lib/api/manage/client-schemas";

const READ = ["manage.clients.read"];
const WRITE = ["manage.clients.write"];
const clientId = pathId("clientId");
const secretId = pathId("secretId");
const optionalIfMatch = {
  name: "If-Match",
  in: "header",
  required: false,
  description: "The client's ETag as read: the decision is then about that version (412 if its vendor changed it)",
  schema: { type: "string" },
};

/** 201 with the secret, and the client that lists it as the Location: a secret has no resource of its own. */
function secretCreated(operation: Record<string, unknown>): Record<string, unknown> {
  const created = {
    description: "Created; the value is shown this once",
    headers: { Location: { description: "The client, which lists the secret", schema: { type: "string" } } },
    content: json(ref("NewClientSecret")),
  };
  return { ...operation, responses: { "201": created, ...(operation.responses as object) } };
}

export const CLIENT_ROUTES: readonly ManageRoute[] = [
  {
    method: "GET",
    path: "/manage/v1/clients",
    scopes: READ,
    handle: listClientsPage,
    operation: manageOperation({
      operationId: "listClients",
      summary: "The clients, by id; status=pending lists the applications waiting for a decision",
      parameters: [
        { name: "status", in: "query", schema: { enum: ["approved", "pending", "rejected"] } },
        { name: "kind", in: "query", schema: { enum: ["browser", "native", "web", "backend"] } },
      ],
      page: { item: "ClientSummary", max: 200, default: 50 },
    }),
  },
  {
    method: "POST",
    path: "/manage/v1/clients",
    scopes: WRITE,
    handle: addClient,
    operation: manageOperation({
      operationId: "addClient",
      summary: "Registers a client (the metadata of `clients add`); a confidential one's first secret is shown once",
      body: "ClientMetadata",
      created: "RegisteredClient",
      problems: writeProblems("conflict"),
    }),
  },
  {
    method: "GET",
    path: "/manage/v1/clients/{clientId}",
    scopes: READ,
    handle: getClient,
    operation: manageOperation({ operationId: "getClient", parameters: [clientId], ok: "Client", notFound: true }),
  },
  {
    method: "PUT",
    path: "/manage/v1/clients/{clientId}",
    scopes: WRITE,
    handle: replaceClient,
    operation: manageOperation({
      operationId: "replaceClient",
      summary: "Replaces the client's metadata, as the operator's edit form and `clients update` do",
      parameters: [clientId],
      ifMatch: true,
      body: "ClientMetadata",
      ok: "Client",
      notFound: true,
      problems: writeProblems("conflict"),
    }),
  },
  {
    method: "DELETE",
    path: "/manage/v1/clients/{clientId}",
    scopes: WRITE,
    handle: deleteClient,
    operation: manageOperation({
      operationId: "removeClient",
      summary: "Removes the client with its secrets, consents, codes and refresh tokens",
      parameters: [clientId],
      noContent: true,
      notFound: true,
    }),
  },
  {
    method: "POST",
    path: "/manage/v1/clients/{clientId}/approve",
    scopes: WRITE,
    handle: reviewing(true),
    operation: manageOperation({
      operationId: "approveClient",
      summary: "Approves a software vendor's application, or its change waiting",
      parameters: [clientId, optionalIfMatch],
      ok: "Client",
      notFound: true,
      problems: ["conflict", "precondition-failed", "unprocessable"],
    }),
  },
  {
    method: "POST",
    path: "/manage/v1/clients/{clientId}/reject",
    scopes: WRITE,
    handle: reviewing(false),
    operation: manageOperation({
      operationId: "rejectClient",
      summary: "Rejects a software vendor's application, or its change waiting, with the reason the vendor reads",
      parameters: [clientId, optionalIfMatch],
      body: "ClientReview",
      ok: "Client",
      notFound: true,
      problems: writeProblems("conflict", "precondition-failed"),
    }),
  },
  {
    method: "POST",
    path: "/manage/v1/clients/{clientId}/secrets",
    scopes: WRITE,
    handle: addSecret,
    operation: secretCreated(
      manageOperation({
        operationId: "addClientSecret",
        summary: "A new secret for a confidential client, shown this once; the others keep working",
        parameters: [clientId],
        body: "NewSecretRequest",
        notFound: true,
        problems: writeProblems("conflict"),
      }),
    ),
  },
  {
    method: "POST",
    path: "/manage/v1/clients/{clientId}/secrets/{secretId}/expiry",
    scopes: WRITE,
    handle: setSecretExpiry,
    operation: manageOperation({
      operationId: "setClientSecretExpiry",
      parameters: [clientId, secretId],
      body: "SecretExpiry",
      ok: "Client",
      notFound: true,
      problems: writeProblems(),
    }),
  },
  {
    method: "POST",
    path: "/manage/v1/clients/{clientId}/secrets/{secretId}/disable",
    scopes: WRITE,
    handle: disableSecret,
    operation: manageOperation({
      operationId: "disableClientSecret",
      summary: "Disables the secret at once: it no longer authenticates the client",
      parameters: [clientId, secretId],
      ok: "Client",
      notFound: true,
      problems: ["conflict"],
    }),
  },
];
