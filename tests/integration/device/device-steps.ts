/**
 * The steps of a device's sign-in (RFC 8628) against the real route handlers: the device asks for codes and polls
 * the token endpoint, a person signed in at /device enters the code and decides, and openid-client drives the same
 * device flow. Each device request comes from an address of its own, below the per-network limit.
 */
import { expect } from "vitest";
import * as oidc from "openid-client";
import { DEVICE_CODE_GRANT } from "@/lib/oauth/grant-types";
import { call, formRequest, ISSUER, type UserAgent } from "../../helpers/oauth-service";
import { routeFetch } from "../../helpers/route-fetch";

export const DEVICE_SCOPE = "openid profile offline_access platform.catalogs.read";

export interface DeviceAnswer {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

let addresses = 0;
/** An address of its own for each device request (TEST-NET-3, then TEST-NET-2). */
export const freshAddress = () => `${++addresses <= 250 ? "203.0.113" : "198.51.100"}.${(addresses % 250) + 1}`;

export function requestDeviceCodes(
  form: Record<string, string | string[]> = {},
  headers: Record<string, string> = {},
): Promise<Response> {
  const body = { client_id: "demo-device", scope: DEVICE_SCOPE, ...form };
  return call(
    "deviceauthorization",
    formRequest("/connect/deviceauthorization", body, { "x-forwarded-for": freshAddress(), ...headers }),
  );
}

/** A device authorization of demo-device (or of the client the form names), which must be granted. */
export async function deviceCodes(
  form: Record<string, string> = {},
  headers: Record<string, string> = {},
): Promise<DeviceAnswer> {
  const response = await requestDeviceCodes(form, headers);
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

/** The device polls the token endpoint once. */
export function poll(
  deviceCode: string,
  form: Record<string, string> = {},
  headers: Record<string, string> = {},
): Promise<Response> {
  const body = { grant_type: DEVICE_CODE_GRANT, device_code: deviceCode, client_id: "demo-device", ...form };
  return call("token", formRequest("/connect/token", body, headers));
}

/** The error code of a refused poll, which must be a 400 that no cache keeps. */
export async function pollError(response: Response): Promise<string> {
  expect(response.status).toBe(400);
  expect(response.headers.get("cache-control")).toBe("no-store");
  return (await response.json()).error;
}

/** The person enters a code at /device. */
export const enterCode = (agent: UserAgent, userCode: string) =>
  agent.post("device", "/interaction/device", { user_code: userCode });

/** Where a form of /device sent the browser, with its query. */
export const landing = (response: Response) => new URL(response.headers.get("location")!, ISSUER);

/** The person enters the code and allows (the scopes ticked, all by default) or denies; the decision's answer. */
export async function decide(
  agent: UserAgent,
  userCode: string,
  decision: "allow" | "deny",
  scopes?: string[],
): Promise<Response> {
  const entered = await enterCode(agent, userCode);
  const ticket = landing(entered).searchParams.get("request");
  expect(ticket, entered.headers.get("location") ?? "").toBeTruthy();
  const ticked = scopes ?? DEVICE_SCOPE.split(" ");
  return agent.post("device", "/interaction/device", { request: ticket!, decision, scope: ticked });
}

/** openid-client as a device of `clientId`, over the route handlers; each request from an address of its own. */
export async function deviceClient(
  clientId = "demo-device",
  auth: oidc.ClientAuth = oidc.None(),
): Promise<oidc.Configuration> {
  const fetchFromDevice: oidc.CustomFetch = (url, options) => {
    const headers = new Headers(options.headers);
    headers.set("x-forwarded-for", freshAddress());
    return routeFetch(url, { ...options, headers });
  };
  return oidc.discovery(new URL(ISSUER), clientId, undefined, auth, {
    [oidc.customFetch]: fetchFromDevice,
    execute: [oidc.allowInsecureRequests],
  });
}
