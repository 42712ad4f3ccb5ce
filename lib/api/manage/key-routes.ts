/**
 * /manage/v1/keys: OptiGate's signing keys as `keys list|rotate|retire` keep them (lib/rights/operator-keys.ts and
 * lib/admin/signing-key-registry.ts), for an operator's management client: each key's kid, algorithm, state and dates,
 * never a private part. A rotation makes new active keys and keeps the old ones in the JWKS until their tokens have
 * expired; retiring takes a superseded key out of the JWKS at once (a leaked key), never the active one.
 */
import { onlyMembers, queryParameters, readJsonObject } from "@/lib/api/request-input";
import { representationResponse, type ManageCall, type ManageRoute } from "@/lib/api/manage/manage-call";
import { manageOperation, pathId, writeProblems } from "@/lib/api/manage/manage-openapi";
import { json, ref } from "@/lib/api/openapi-schemas";
import { ApiProblem } from "@/lib/errors/api-problem";
import { retireKeyFor, rotateKeysFor, signingKeysFor } from "@/lib/rights/operator-keys";
import { signingKeyJson } from "@/lib/admin/signing-key-registry";
import { isSigningAlgorithm, SIGNING_ALGORITHMS } from "@/lib/store/models/signing-key";

const READ = ["manage.keys.read"];
const WRITE = ["manage.keys.write"];

async function listKeys(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  return representationResponse({ items: (await signingKeysFor(call.actor)).map(signingKeyJson) });
}

/** The body is optional: none, or `{}`, rotates every algorithm. */
async function rotateKeys(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  const bodyless = call.request.body === null && !call.request.headers.has("content-type");
  const body = bodyless ? {} : await readJsonObject(call.request);
  onlyMembers(body, ["alg"]);
  const { alg } = body;
  if (alg !== undefined && !isSigningAlgorithm(alg))
    throw new ApiProblem("bad-request", `alg must be one of ${SIGNING_ALGORITHMS.join(", ")}.`);
  return representationResponse({ items: await rotateKeysFor(call.actor, alg) });
}

async function retireKey(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  await retireKeyFor(call.actor, call.params.kid);
  const key = (await signingKeysFor(call.actor)).find((found) => found.kid === call.params.kid)!;
  return representationResponse(signingKeyJson(key));
}

export const KEY_ROUTES: readonly ManageRoute[] = [
  {
    method: "GET",
    path: "/manage/v1/keys",
    scopes: READ,
    handle: listKeys,
    operation: manageOperation({
      operationId: "listSigningKeys",
      summary: "Every signing key, oldest first",
      ok: "SigningKeyList",
    }),
  },
  {
    method: "POST",
    path: "/manage/v1/keys/rotate",
    scopes: WRITE,
    handle: rotateKeys,
    operation: {
      ...manageOperation({
        operationId: "rotateSigningKeys",
        summary:
          "New active keys (of alg, or of every algorithm); the old ones stay published until their tokens expire",
        ok: "KeyRotation",
        problems: writeProblems(),
      }),
      // No body rotates every algorithm.
      requestBody: { required: false, content: json(ref("KeyRotationRequest")) },
    },
  },
  {
    method: "POST",
    path: "/manage/v1/keys/{kid}/retire",
    scopes: WRITE,
    handle: retireKey,
    operation: manageOperation({
      operationId: "retireSigningKey",
      summary: "Takes a superseded key out of the JWKS now: the tokens it signed no longer verify",
      parameters: [pathId("kid")],
      ok: "SigningKey",
      notFound: true,
      problems: ["conflict"],
    }),
  },
];

const dates = {
  created_at: { type: "string", format: "date-time" },
  superseded_at: { type: ["string", "null"], format: "date-time" },
  retired_at: { type: ["string", "null"], format: "date-time" },
};

export const KEY_SCHEMAS = {
  SigningKey: {
    type: "object",
    description: "active: it signs; published: superseded, in the JWKS until retired_at; retired: out of the JWKS",
    additionalProperties: false,
    required: ["kid", "alg", "state", "created_at", "superseded_at", "retired_at"],
    properties: {
      kid: { type: "string" },
      alg: { enum: [...SIGNING_ALGORITHMS] },
      state: { enum: ["active", "published", "retired"] },
      ...dates,
    },
  },
  SigningKeyList: {
    type: "object",
    additionalProperties: false,
    required: ["items"],
    properties: { items: { type: "array", items: { $ref: "#/components/schemas/SigningKey" } } },
  },
  KeyRotationRequest: {
    type: "object",
    additionalProperties: false,
    properties: { alg: { enum: [...SIGNING_ALGORITHMS] } },
  },
  KeyRotation: {
    type: "object",
    additionalProperties: false,
    required: ["items"],
    properties: {
      items: {
        type: "array",
        items: {
          type: "object",
          additionalProperties: false,
          required: ["alg", "kid", "superseded"],
          properties: {
            alg: { enum: [...SIGNING_ALGORITHMS] },
            kid: { type: "string" },
            superseded: { type: "array", items: { type: "string" } },
          },
        },
      },
    },
  },
};
