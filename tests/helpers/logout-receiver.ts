/**
 * A relying party's back-channel logout URI on 127.0.0.1 (OpenID Connect Back-Channel Logout 1.0): it keeps the
 * logout tokens OptiGate posts to it, for a test to read and to empty.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface LogoutReceiver {
  /** The URI to register as the client's backchannel_logout_uri. */
  uri: string;
  /** The logout tokens received so far, oldest first. */
  received: string[];
  close(): Promise<void>;
}

export async function startLogoutReceiver(): Promise<LogoutReceiver> {
  const received: string[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      received.push(new URLSearchParams(body).get("logout_token") ?? "");
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    uri: `http://127.0.0.1:${port}/backchannel`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
