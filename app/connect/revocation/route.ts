import { revocationEndpoint } from "@/lib/server/protocol-endpoints";

export const dynamic = "force-dynamic";
export const POST = revocationEndpoint.handle;
export const OPTIONS = revocationEndpoint.preflight;
