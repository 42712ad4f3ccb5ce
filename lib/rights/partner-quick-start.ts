/**
 * The quick start of one of a software vendor's applications (/portal/developer/<client>): the facts a relying party
 * needs and the snippets filled in with them, for the vendor's administrators and developers, as the partner portal
 * (partner-portal.ts) shows its list. The application is looked up among the acting user's company's own: any other
 * client id, another vendor's included, is not found. No secret is read.
 */
import "server-only";
import { ENDPOINTS } from "@/lib/http/paths";
import { quickStartGuide, type QuickStartGuide } from "@/lib/quick-start/quick-start-guide";
import type { Actor } from "@/lib/rights/actor";
import { requirePartner } from "@/lib/rights/partner-portal";
import type { RegisteredClient } from "@/lib/store/models/client";

type ApplicationStatus = "approved" | "pending" | "rejected";

export interface PartnerQuickStart {
  client: RegisteredClient;
  status: ApplicationStatus;
  /** An approved application's change waits for approval: the quick start shows the registration in force. */
  changeWaiting: boolean;
  issuer: string;
  discoveryUrl: string;
  guide: QuickStartGuide;
}

const statusOf = (status: string): ApplicationStatus =>
  status === "approved" || status === "rejected" ? status : "pending";

/** The quick start of the acting user's company's application `clientId`; undefined when it has none of that id. */
export async function partnerQuickStart(actor: Actor, clientId: string): Promise<PartnerQuickStart | undefined> {
  const [user, partner] = await requirePartner(actor);
  const row = (await user.context.stores.partners.list(partner.id)).find((candidate) => candidate.id === clientId);
  if (!row) return undefined;
  const { status, ownerCompanyId: _owner, pendingMetadata, reviewNote: _note, ...client } = row;
  const issuer = user.context.config.publicUrl;
  return {
    client,
    status: statusOf(status),
    changeWaiting: pendingMetadata !== null,
    issuer,
    discoveryUrl: `${issuer}${ENDPOINTS.discovery}`,
    guide: quickStartGuide({ issuer, client }),
  };
}
