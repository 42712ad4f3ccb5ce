/**
 * A registered client as the operator reads it, the same in `clients show` and in the management API's
 * GET /manage/v1/clients/{clientId}: its RFC 7591 metadata, its kind, its standing with the operator (approved,
 * pending or rejected, a vendor's change waiting) and its secrets by id and dates, never their values or hashes.
 */
import { toClientMetadata } from "@/lib/admin/client-metadata-document";
import type { ClientSecretInfo, RegisteredClient } from "@/lib/store/models/client";
import type { ClientReviewState } from "@/lib/store/partner-store";

type SecretStatus = "active" | "disabled" | "expired";

function secretStatus(secret: ClientSecretInfo, now = new Date()): SecretStatus {
  if (secret.disabledAt) return "disabled";
  if (secret.expiresAt && secret.expiresAt <= now) return "expired";
  return "active";
}

/**
 * What the record adds to the metadata: the server's to set. An update that sends a record back unchanged is not
 * refused for them, and they change nothing.
 */
export const RECORD_FIELDS = [
  "client_kind",
  "created_at",
  "status",
  "owner_company_id",
  "pending_changes",
  "review_note",
  "secrets",
] as const;

const isoOrNull = (date: Date | null) => date?.toISOString() ?? null;

/** A secret as the operator sees it: id, description, state and dates. */
const secretRecord = (secret: ClientSecretInfo, now = new Date()) => ({
  id: secret.id,
  description: secret.description,
  status: secretStatus(secret, now),
  created_at: secret.createdAt.toISOString(),
  expires_at: isoOrNull(secret.expiresAt),
  disabled_at: isoOrNull(secret.disabledAt),
  last_used_at: isoOrNull(secret.lastUsedAt),
});

/** The client's metadata with its kind and standing; with its secrets when they are given (a list leaves them out). */
export function clientRecord(
  client: RegisteredClient,
  review: ClientReviewState | undefined,
  secrets?: ClientSecretInfo[],
  now = new Date(),
): Record<string, unknown> {
  return {
    ...toClientMetadata(client),
    client_kind: client.kind,
    created_at: client.createdAt.toISOString(),
    status: review?.status ?? "approved",
    ...(review?.owner ? { owner_company_id: review.owner.id } : {}),
    ...(review?.pendingMetadata ? { pending_changes: review.pendingMetadata } : {}),
    ...(review?.reviewNote ? { review_note: review.reviewNote } : {}),
    ...(secrets ? { secrets: secrets.map((secret) => secretRecord(secret, now)) } : {}),
  };
}
