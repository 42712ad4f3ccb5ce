/**
 * What anyone may know of a registered client: its name as the sign-in pages show it ("continue to Demo-Webshop").
 * Nothing else of a client leaves this module.
 */
import "server-only";
import { localizedText } from "@/lib/i18n/localized-text";
import { getServiceContext } from "@/lib/service-context";

/** The client's name in the language, or undefined when no approved client has that id. */
export async function registeredClientName(clientId: string, locale: string): Promise<string | undefined> {
  const client = await getServiceContext().stores.clients.find(clientId);
  // A sandbox's name is the vendor's, not reviewed yet: the sign-in page does not show it.
  return client && !client.sandbox ? localizedText(client.names, locale, client.id) : undefined;
}

/** The name, or the id itself when there is no such client. */
export async function clientDisplayName(clientId: string, locale: string): Promise<string> {
  return (await registeredClientName(clientId, locale)) ?? clientId;
}
