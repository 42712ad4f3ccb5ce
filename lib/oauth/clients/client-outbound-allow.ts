/**
 * The non-public ranges a client's own URLs (its `jwks_uri`, its `backchannel_logout_uri`) may reach: OUTBOUND_ALLOW's
 * for the operator's clients, none for a software vendor's. A vendor's registration is held to public addresses, but
 * the name it registered can be pointed anywhere once approved, the operator's internal ranges included.
 */
import { NO_ADDRESS_RANGES, type AddressRanges } from "@/lib/config/address-ranges";
import type { ClientOwner } from "@/lib/store/models/client";

export function clientOutboundAllow(outboundAllow: AddressRanges, client: ClientOwner): AddressRanges {
  return client.ownerCompanyId === null ? outboundAllow : NO_ADDRESS_RANGES;
}
