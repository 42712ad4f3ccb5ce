/** The address the page's request came from, as the forms' handlers read it (lib/http/client-address.ts). */
import "server-only";
import { headers } from "next/headers";
import { getConfig } from "@/lib/config";
import { clientAddress } from "@/lib/http/client-address";

export async function pageClientAddress(): Promise<string | undefined> {
  return clientAddress({ headers: await headers() }, getConfig().trustedProxies);
}
