/**
 * Where OptiGate is and who this app is there, from the environment (`.env` holds the values of OptiGate's demo
 * data: `npm run demo` on port 3000, client `demo-authjs`).
 */
function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: see .env`);
  return value.replace(/\/$/, "");
}

export const settings = {
  issuer: required("OPTIGATE_ISSUER"),
  /** The platform API; OptiGate serves it itself unless told otherwise. */
  apiUrl: process.env.OPTIGATE_API_URL?.replace(/\/$/, "") ?? required("OPTIGATE_ISSUER"),
  clientId: required("OPTIGATE_CLIENT_ID"),
  clientSecret: required("OPTIGATE_CLIENT_SECRET"),
  appUrl: required("NEXTAUTH_URL"),
  /** The access token is renewed this long before it expires (OptiGate's last one hour). */
  refreshMarginSeconds: Number(process.env.REFRESH_MARGIN_SECONDS ?? 60),
};
