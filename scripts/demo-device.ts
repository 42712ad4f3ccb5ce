/**
 * `npm run demo:device`: signs in as the demo's device `demo-device` (RFC 8628) with openid-client against PUBLIC_URL
 * (default http://localhost:3000, where `npm run demo` serves). It prints the user code, where to enter it and a QR
 * code of the link that carries the code, polls until the person allows or denies at /device (as the optician, say),
 * then prints the ID token's claims and what else came back.
 */
import * as oidc from "openid-client";
import QRCode from "qrcode";

const issuer = new URL(process.env.PUBLIC_URL ?? `http://localhost:${process.env.PORT ?? 3000}`);
const scope = `openid profile offline_access ${process.env.API_SCOPE_PREFIX ?? "platform"}.catalogs.read`;
// A demo on the developer's own machine speaks plain http.
const insecure = issuer.protocol === "http:" ? { execute: [oidc.allowInsecureRequests] } : undefined;

async function signInAsDevice(): Promise<void> {
  const config = await oidc.discovery(issuer, "demo-device", undefined, oidc.None(), insecure);
  const device = await oidc.initiateDeviceAuthorization(config, { scope });
  console.log(`To sign this device in, open ${device.verification_uri} and enter the code ${device.user_code}`);
  console.log(`or scan this code, which opens ${device.verification_uri_complete}:\n`);
  console.log(await QRCode.toString(device.verification_uri_complete!, { type: "terminal", small: true }));
  console.log(`Waiting for your decision (the code expires in ${Math.round(device.expires_in / 60)} minutes) ...`);
  const tokens = await oidc.pollDeviceAuthorizationGrant(config, device);
  console.log("\nSigned in. The ID token says:");
  console.log(JSON.stringify(tokens.claims(), null, 2));
  console.log(`\ntoken_type ${tokens.token_type}, scope "${tokens.scope ?? scope}", expires_in ${tokens.expires_in} s`);
  console.log(tokens.refresh_token ? "A refresh token came too: the device stays signed in." : "No refresh token.");
}

signInAsDevice().catch((error: unknown) => {
  const { error: code, error_description: description } = (error ?? {}) as Record<string, unknown>;
  console.error(code ? `The device was not signed in: ${code} (${description})` : error);
  process.exitCode = 1;
});
