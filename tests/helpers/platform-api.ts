/**
 * Calls the platform API's real handler (the route file under app/v2/) and validates every response against the
 * API's own OpenAPI document with Ajv (JSON Schema 2020-12): the operation is found by method and path template, the
 * response by status, the schema by content type. A response the document does not describe fails the test.
 */
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { expect } from "vitest";
import { API_ROUTES } from "@/lib/api/api-routes";
import { openApiDocument } from "@/lib/api/openapi-document";
import {
  basic,
  call,
  formRequest,
  ISSUER,
  signedInAgent,
  interactionOf,
  returnUrlOf,
  type UserAgent,
} from "./oauth-service";

type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE" | "OPTIONS";

export const DOCUMENT = openApiDocument({ apiUrl: ISSUER, publicUrl: ISSUER, apiScopePrefix: "platform" }, API_ROUTES);
type OpenApiDocument = { paths: Record<string, unknown>; components: { responses: unknown } };

/**
 * A check of responses against an OpenAPI document of OptiGate's (the platform API's, the management API's): the
 * response's JSON body, parsed, or undefined for other bodies.
 */
export function documentChecker(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: "openapi", components: document.components });

  const validators = new Map<object, ReturnType<typeof ajv.compile>>();
  /** Schemas of the document refer to its components, and so may inline ones (a page of items). */
  function validatorOf(schema: { $ref?: string }) {
    let validate = validators.get(schema);
    if (!validate)
      validators.set(
        schema,
        (validate = ajv.compile(
          schema.$ref ? { $ref: `openapi${schema.$ref}` } : { ...schema, components: document.components },
        )),
      );
    return validate;
  }

  type Operation = {
    responses: Record<
      string,
      { content?: Record<string, { schema: object }>; headers?: Record<string, unknown>; $ref?: string }
    >;
  };

  function operationOf(method: string, path: string): Operation | undefined {
    const segments = path.split("?")[0].split("/");
    for (const [template, item] of Object.entries(document.paths)) {
      const parts = template.split("/");
      if (
        parts.length === segments.length &&
        parts.every((part, index) => part.startsWith("{") || part === segments[index])
      ) {
        return (item as Record<string, Operation>)[method.toLowerCase()];
      }
    }
    return undefined;
  }

  /** The body as sent, uncompressed. */
  function decoded(coding: string | null, bytes: Buffer): string {
    if (coding === "gzip") return gunzipSync(bytes).toString("utf8");
    if (coding === "br") return brotliDecompressSync(bytes).toString("utf8");
    expect(coding, "a content coding the tests know").toBeNull();
    return bytes.toString("utf8");
  }

  /** Checks the response against the document; returns the parsed JSON body (undefined for other bodies). */
  async function checkAgainstDocument(method: string, path: string, response: Response): Promise<any> {
    const text = decoded(response.headers.get("content-encoding"), Buffer.from(await response.clone().arrayBuffer()));
    const type = (response.headers.get("content-type") ?? "").split(";")[0];
    const operation = operationOf(method, path);
    if (!operation) {
      // Paths and methods the API does not have still answer with a problem body.
      expect([404, 405]).toContain(response.status);
      expect(type).toBe("application/problem+json");
    }
    let described = operation?.responses[String(response.status)];
    if (described?.$ref)
      described = (document.components.responses as Record<string, typeof described>)[described.$ref.split("/").pop()!];
    if (operation)
      expect(
        described,
        `${method} ${path} answered ${response.status}, which the OpenAPI document does not describe`,
      ).toBeDefined();
    if (response.status === 304 || response.status === 204) {
      expect(text, `a ${response.status} has no body`).toBe("");
      return undefined;
    }
    const schema = operation ? described!.content?.[type]?.schema : { $ref: "#/components/schemas/Problem" };
    expect(
      schema,
      `${method} ${path} ${response.status} answered ${type}, which the OpenAPI document does not describe`,
    ).toBeDefined();
    for (const [header, spec] of Object.entries(described?.headers ?? {}))
      if ((spec as { required?: boolean }).required !== false)
        expect(response.headers.get(header), `header ${header}`).not.toBeNull();
    // XML and a byte range have no JSON to check.
    if (type === "application/xml" || response.status === 206) return undefined;
    const validate = validatorOf(schema as { $ref?: string });
    // JSON Lines: each line one item of the schema; the items are the body.
    if (type === "application/x-ndjson") {
      expect(text === "" || text.endsWith("\n"), "JSON Lines end with a line break").toBe(true);
      const lines =
        text === ""
          ? []
          : text
              .slice(0, -1)
              .split("\n")
              .map((line) => JSON.parse(line));
      const wrong = lines.find((line) => !validate(line));
      expect(wrong === undefined ? [] : validate.errors, `${method} ${path} ${response.status}`).toEqual([]);
      return lines;
    }
    const body = JSON.parse(text);
    expect(validate(body) ? [] : validate.errors, `${method} ${path} ${response.status}`).toEqual([]);
    return body;
  }
  return checkAgainstDocument;
}

/** Checks the response against the platform API's document; returns the parsed JSON body (undefined for others). */
export const checkAgainstDocument = documentChecker(DOCUMENT);

export interface ApiCallOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** One API call through the route file; the response and its JSON body, both checked against the document. */
export async function api(
  method: Method,
  path: string,
  options: ApiCallOptions = {},
): Promise<{ response: Response; body: any }> {
  const route = (await import("@/app/v2/[...path]/route")) as Record<Method, (request: Request) => Promise<Response>>;
  const headers: Record<string, string> = {
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    ...options.headers,
  };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const response = await route[method](new Request(`${ISSUER}${path}`, { method, headers, body }));
  if (method === "OPTIONS") return { response, body: undefined };
  return { response, body: await checkAgainstDocument(method, path, response) };
}

/** An access token for a client acting for itself (client credentials). */
export async function clientToken(clientId: string, secret: string, scope: string): Promise<string> {
  const response = await call(
    "token",
    formRequest(
      "/connect/token",
      { grant_type: "client_credentials", scope },
      { authorization: basic(clientId, secret) },
    ),
  );
  expect(response.status).toBe(200);
  return (await response.json()).access_token;
}

/** An access token of demo-web for a demo user, by the authorization code flow with consent. */
export async function userToken(email: string, password: string, scope: string, agent?: UserAgent): Promise<string> {
  return (await userTokens(email, password, scope, agent)).access_token;
}

/** demo-web's token response for a demo user (access token, and ID and refresh tokens by scope). */
export async function userTokens(
  email: string,
  password: string,
  scope: string,
  agent?: UserAgent,
): Promise<{ access_token: string; id_token?: string; refresh_token?: string }> {
  const user = agent ?? (await signedInAgent(email, password));
  const params = {
    client_id: "demo-web",
    redirect_uri: "http://localhost:4000/callback",
    response_type: "code",
    scope,
    state: "s",
  };
  let response = await user.authorize(params);
  if (response.headers.get("location")?.startsWith("/login"))
    throw new Error(`not signed in: ${returnUrlOf(response)}`);
  if (response.headers.get("location")?.startsWith("/consent"))
    response = await user.consent(interactionOf(response), "allow", scope.split(" "));
  const code = new URL(response.headers.get("location")!).searchParams.get("code");
  expect(code).toBeTruthy();
  const token = await call(
    "token",
    formRequest(
      "/connect/token",
      { grant_type: "authorization_code", code: code!, redirect_uri: params.redirect_uri },
      { authorization: basic("demo-web", "demo-web-secret") },
    ),
  );
  expect(token.status).toBe(200);
  return token.json();
}
